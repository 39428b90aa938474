# The tuner's build helper. `make run` installs what is missing, builds and runs the tuner;
# `make test` runs the whole test suite. Both install the Debian packages they need first.

# Debian packages: what building needs, and what the tests drive besides (tmux for the screen tests;
# a private PulseAudio server and ALSA's pulse plugin for the desktop sound path; espeak-ng for --speak).
BUILD_DEPS := libfftw3-dev libasound2-dev libncursesw5-dev libsndfile1-dev
TEST_DEPS := $(BUILD_DEPS) tmux pulseaudio pulseaudio-utils libasound2-plugins espeak-ng
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
ARGS ?=

.PHONY: deps test-deps build run test
deps:
	@$(MAKE) --no-print-directory install-missing PACKAGES="$(BUILD_DEPS)"
test-deps:
	@$(MAKE) --no-print-directory install-missing PACKAGES="$(TEST_DEPS)"

# Another apt-get (an unattended upgrade, a second `make`) may hold the dpkg lock: wait for it rather
# than fail the build.
.PHONY: install-missing
install-missing:
	@missing=$$(for p in $(PACKAGES); do \
	    dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	    echo "Installing:" $$missing; \
	    $(SUDO) apt-get -o DPkg::Lock::Timeout=600 update -qq && \
	    $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq $$missing; \
	fi

build: deps
	swift build -c release

run: build
	.build/release/tuner $(ARGS)

test: test-deps engine-test
	swift test

# The engine's units, each tested directly (CTuner/tests, C++): built and run before the Swift suite.
ENGINE_TEST := .build/engine-unit-tests
ENGINE_CXX := $(shell command -v clang++ || command -v g++)
.PHONY: engine-test
engine-test: deps
	@mkdir -p .build
	$(ENGINE_CXX) -std=c++17 -O2 -Wall -Wextra -o $(ENGINE_TEST) CTuner/src/*.cpp CTuner/tests/*.cpp -lfftw3f -lm -lpthread
	$(ENGINE_TEST)

# `make bench` — the accuracy and speed benchmark (issue 4); see BENCHMARKS.md. Not part of `make test`.
# Benchmarks/setup.sh installs its Debian packages and a venv for librosa (pYIN) and prints the Python
# to use; the harness's self-tests run (Benchmarks/test_harness.py), the release binary is built and
# Benchmarks/bench.py runs everything in one go; then Benchmarks/settle_report.py scores the settled
# notes (issue 19: one announcement per note on real recordings and renders).
# Options: make bench OUR_WINDOW_SECONDS=0.2 BENCH_ARGS="--pyin full"
OUR_WINDOW_SECONDS ?=
BENCH_ARGS ?=

.PHONY: bench
bench: deps
	@python=$$(Benchmarks/setup.sh) && \
	"$$python" -m unittest discover -s Benchmarks -p 'test_*.py' && \
	swift build -c release --product tuner && \
	skip=$$(cat Benchmarks/out/pyin-skip.txt 2>/dev/null || true) && \
	rm -rf Benchmarks/out/numba-cache && \
	NUMBA_CACHE_DIR=$(CURDIR)/Benchmarks/out/numba-cache "$$python" Benchmarks/bench.py \
	  $(if $(OUR_WINDOW_SECONDS),--our-window-seconds $(OUR_WINDOW_SECONDS)) \
	  $${skip:+--skip-note "$$skip"} --strums $(BENCH_ARGS) && \
	"$$python" Benchmarks/settle_report.py

# ---- Hardening: fuzzing, sanitizers, soak (see Fuzz/README.md and scripts/) --------------------------
FUZZ_SECONDS ?= 60

.PHONY: fuzz sanitize soak
# libFuzzer over the engine's block input and over audio-file reading, FUZZ_SECONDS each (0: corpus only).
fuzz: deps
	Fuzz/run.sh $(FUZZ_SECONDS)

# The test suite under ASan+UBSan, then under TSan (scripts/sanitize.sh); SANITIZE_ONLY=asan|tsan for one.
SANITIZE_ONLY ?=
sanitize: test-deps
	SANITIZE_ONLY=$(SANITIZE_ONLY) scripts/sanitize.sh

# One hour of audio through PitchEngine + TunerSession, faster than real time; prints RSS and backlog.
# TUNER_SOAK_SECONDS=… shortens it.
soak: deps
	TUNER_SOAK=1 swift test --filter SoakTests
