#!/bin/sh
# Builds the four libFuzzer targets (engine_fuzz.cpp, poly_fuzz.cpp, file_fuzz.cpp, AudioFileSourceFuzz.swift) and runs each for FUZZ_SECONDS (default 60); 0 runs the committed corpus
# once (a quick regression check). Usage: Fuzz/run.sh [seconds]   (or: make fuzz FUZZ_SECONDS=…)
#
# Needs a clang with libFuzzer: the Swift toolchain's clang has it (…/lib/clang/*/lib/linux/
# libclang_rt.fuzzer-x86_64.a); Debian's clang + libclang-rt-14-dev works too (CXX=clang++-14).
# Each target is compiled from CTuner/src with -fsanitize=fuzzer,address,undefined. New inputs go to
# .build/fuzz/corpus-<target> (not committed); crashes to .build/fuzz/artifacts/. Exit status is
# non-zero when a target finds a crash, a leak or a broken result invariant.
set -eu
SECONDS_EACH=${1:-${FUZZ_SECONDS:-60}}
CXX=${CXX:-clang++}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT="$ROOT/.build/fuzz"
mkdir -p "$OUT/artifacts"
# No comparison tracing (trace-cmp): the engine's hot loops compare sizes millions of times per input,
# and tracing them took 60 % of the time (6× fewer executions); the inputs are numbers, not magic values.
FLAGS="-std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-coverage=trace-cmp -fno-sanitize-recover=undefined"
INCLUDES="-I$ROOT/CTuner/include -I$ROOT/CTuner/src -I$ROOT/Fuzz"
LD=""
if "$CXX" -fuse-ld=lld -x c++ -o /dev/null - </dev/null -nostdlib -shared 2>/dev/null; then LD="-fuse-ld=lld"; fi

build() {  # build <target> <extra libraries>
    echo "fuzz: building $1"
    # shellcheck disable=SC2086
    "$CXX" $FLAGS $LD $INCLUDES "$ROOT"/CTuner/src/*.cpp "$ROOT/Fuzz/$1.cpp" $2 -lfftw3f -lm -lpthread -o "$OUT/$1"
}

# The Swift target: SwiftPM builds CTuner, TunerBridge, TunerMusic and TunerAudio with -sanitize=fuzzer,address into
# .build/swiftfuzz; swiftc then links the harness with their object files (SwiftPM has no way to build a
# libFuzzer executable without a main, and the package should not carry one).
build_swift() {
    echo "fuzz: building audiofilesource_fuzz (Swift)"
    swift build --target TunerAudio --scratch-path "$ROOT/.build/swiftfuzz" --sanitize=fuzzer --sanitize=address \
        -Xswiftc -use-ld=lld >"$OUT/audiofilesource_fuzz.build.log" 2>&1 \
        || { tail -n 20 "$OUT/audiofilesource_fuzz.build.log"; return 1; }
    bin=$(swift build --scratch-path "$ROOT/.build/swiftfuzz" --show-bin-path)
    # shellcheck disable=SC2086
    swiftc -swift-version 6 -parse-as-library -g -Onone -sanitize=fuzzer,address -use-ld=lld \
        -I "$bin/Modules" -Xcc -fmodule-map-file="$bin/CTuner.build/module.modulemap" -Xcc -I"$ROOT/CTuner/include" \
        -I "$ROOT/Sources/CSndfile" -I "$ROOT/Sources/CALSA" "$ROOT/Fuzz/AudioFileSourceFuzz.swift" \
        "$bin"/TunerBridge.build/*.swift.o "$bin"/TunerMusic.build/*.swift.o "$bin"/TunerAudio.build/*.swift.o "$bin"/CTuner.build/src/*.o \
        -lsndfile -lfftw3f -lasound -lstdc++ -lm -o "$OUT/audiofilesource_fuzz" 2>&1 | grep -v 'Cannot export local symbol' || true
    test -x "$OUT/audiofilesource_fuzz"
}

status=0
run() {  # run <target> <max_len> [seed folder name]
    target=$1
    seeds=${3:-$1}
    mkdir -p "$OUT/corpus-$target"
    log="$OUT/$target.log"
    if [ "$SECONDS_EACH" -eq 0 ]; then
        set -- -runs=0 -print_final_stats=1
    else
        set -- -max_total_time="$SECONDS_EACH" -max_len="$2" -print_final_stats=1 -timeout=10 -rss_limit_mb=2048 \
            "$OUT/corpus-$target"
    fi
    echo "fuzz: running $target ($SECONDS_EACH s), log in $log"
    if LSAN_OPTIONS="suppressions=$ROOT/Fuzz/lsan.supp:print_suppressions=0" UBSAN_OPTIONS=print_stacktrace=1 \
        "$OUT/$target" -artifact_prefix="$OUT/artifacts/$target-" "$@" "$ROOT/Fuzz/corpus/$seeds" >"$log" 2>&1; then
        counters=$(sed -n 's/.*Loaded 1 modules *(\([0-9]*\) inline 8-bit counters).*/\1/p' "$log" | head -n 1)
        last=$(grep -E '^#[0-9]+.*(DONE|INITED|pulse)' "$log" | tail -n 1)
        execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
        rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
        cov=$(echo "$last" | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
        corpus=$(echo "$last" | sed -n 's/.*corp: \([^ ]*\).*/\1/p')
        echo "fuzz: $target OK — ${execs:-?} executions (${rate:-?}/s), coverage ${cov:-?} of ${counters:-?} edges, corpus ${corpus:-?}"
    else
        echo "fuzz: $target FAILED — see $log; the input is in $OUT/artifacts/"
        grep -E 'ERROR|SUMMARY|runtime error|invariant|refused|accepted|Test unit written' "$log" | head -n 12
        status=1
    fi
}

build engine_fuzz ""
build poly_fuzz ""
build file_fuzz "-lsndfile"
rm -f "$OUT/audiofilesource_fuzz"
build_swift || { echo "fuzz: audiofilesource_fuzz FAILED to build"; status=1; }
run engine_fuzz 4096
run poly_fuzz 4096
run file_fuzz 16384
[ -x "$OUT/audiofilesource_fuzz" ] && run audiofilesource_fuzz 16384 file_fuzz
exit $status
