#!/bin/sh
# `make sanitize`: the whole test suite under AddressSanitizer + UndefinedBehaviorSanitizer, then again
# under ThreadSanitizer (the stream bridge's analysis thread, TunerSessionTests, is what it is for;
# TSAN_FILTER=TunerSessionTests narrows it). Each uses its own build folder (.build/asan, .build/tsan)
# so the normal debug build is untouched. SANITIZE_ONLY=asan or =tsan runs one half. Exit status is
# non-zero when any step fails.
#
# Swift 6.3 on Linux: `--sanitize=address` instruments Swift, C and C++ alike and links the ASan
# runtime; `--sanitize=undefined` is refused for Swift code ("unsupported option '-sanitize=undefined'
# for target 'x86_64-unknown-linux-gnu'"), so UBSan is given to the C and C++ targets (the engine, the
# allocation counter) with -Xcc/-Xcxx; the ASan runtime carries the UBSan handlers. Any UB report stops
# the run (-fno-sanitize-recover). AllocationTests are skipped here, with their reason: the sanitizer
# owns malloc, so allocations cannot be counted (Tests/AllocationCounter).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 2
UB="-Xcc -fsanitize=undefined -Xcxx -fsanitize=undefined -Xcc -fno-sanitize-recover=undefined -Xcxx -fno-sanitize-recover=undefined"
LD="-Xswiftc -use-ld=lld"   # gold prints hundreds of "cannot export local symbol __asan_…" warnings
# handle_segv/sigbus/sigfpe=0: the program's own crash handlers must run — the screen tests send the
# binary SIGSEGV and check that it restores the terminal and dies by that signal; with the sanitizer's
# handler it would print a SEGV report and exit 1 instead. (Memory errors are still caught by the
# instrumentation before any SEGV.)
SIGNALS="handle_segv=0:handle_sigbus=0:handle_sigfpe=0"
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:detect_stack_use_after_return=1:$SIGNALS"
export LSAN_OPTIONS="suppressions=$ROOT/scripts/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
# TSan does not stop at the first report (a test process killed mid-run leaves the children it started
# holding swift-test's pipes open, and the run hangs); it exits with status 66 at the end instead, so a
# report still fails the step.
export TSAN_OPTIONS="halt_on_error=0:exitcode=66:second_deadlock_stack=1:suppressions=$ROOT/scripts/tsan.supp:$SIGNALS"

# Not run under the sanitizers, said aloud: the screen test that sends the binary SIGSEGV. The tmux
# harness starts the binary with a cleared environment (env -i), so handle_segv=0 cannot reach it; the
# sanitizer's own SEGV handler then reports and exits 1 instead of dying by the signal. It runs in the
# normal `make test`, as does its SIGABRT twin here. Likewise its twin for signals sent by another
# process (sentFaultSignalEndsTheScreenWithoutACrashReport). And the resource-limit rows of the hostile-
# run table (resourceLimitRun): the sanitizer runtimes reserve terabytes of shadow address space and
# descriptors of their own, so under `ulimit -v`/`ulimit -n` the instrumented binary cannot start at all.
SKIP="crashSignalRestoresTheTerminalThenKillsTheProcess|sentFaultSignalEndsTheScreenWithoutACrashReport|resourceLimitRun"

status=0
step() {  # step <name> <command…>
    name=$1; shift
    echo "sanitize: $name"
    start=$(date +%s)
    # shellcheck disable=SC2068
    if "$@"; then result=passed; else result=FAILED; status=1; fi
    echo "sanitize: $name $result in $(( $(date +%s) - start )) s"
}

ONLY=${SANITIZE_ONLY:-}   # "asan" or "tsan" runs one half (e.g. in CI, where time is short)
echo "sanitize: not run under the sanitizers: $SKIP (reason in scripts/sanitize.sh; it runs in make test)"

if [ "$ONLY" != tsan ]; then
# shellcheck disable=SC2086
step "ASan+UBSan build" swift build --build-tests --scratch-path .build/asan --sanitize=address $UB $LD
# shellcheck disable=SC2086
step "ASan+UBSan tests (whole suite)" swift test --skip-build --scratch-path .build/asan --sanitize=address $UB $LD \
    --skip "$SKIP"
# The engine's unit tests (CTuner/tests, the units reached directly) under the same sanitizers.
mkdir -p .build/asan
step "ASan+UBSan build of the engine unit tests" "$(command -v clang++ || echo c++)" -std=c++17 -O1 -g \
    -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer \
    -o .build/asan/engine-unit-tests CTuner/src/*.cpp CTuner/tests/*.cpp -lfftw3f -lm -lpthread
step "ASan+UBSan engine unit tests" .build/asan/engine-unit-tests
fi
if [ "$ONLY" != asan ]; then
# shellcheck disable=SC2086
step "TSan build" swift build --build-tests --scratch-path .build/tsan --sanitize=thread $LD
# shellcheck disable=SC2086
step "TSan tests (${TSAN_FILTER:-whole suite})" swift test --skip-build --scratch-path .build/tsan \
    --sanitize=thread $LD --skip "$SKIP" ${TSAN_FILTER:+--filter "$TSAN_FILTER"}
fi
exit $status
