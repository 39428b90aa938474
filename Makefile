# The tuner's build helper. `make run` installs what is missing, builds and runs the tuner;
# `make test` runs the whole test suite. Both install the Debian packages they need first.

# Debian packages: what building needs, and what the tests drive besides (tmux for the screen tests;
# a private PulseAudio server and ALSA's pulse plugin for the desktop sound path; espeak-ng for --speak;
# man, zsh and fish for the man page and the completions; dpkg-dev for `make deb`, which `make test` builds).
BUILD_DEPS := libfftw3-dev libasound2-dev libncursesw5-dev libsndfile1-dev
TEST_DEPS := $(BUILD_DEPS) tmux pulseaudio pulseaudio-utils libasound2-plugins espeak-ng man-db zsh fish dpkg-dev
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
ARGS ?=

.PHONY: deps test-deps build run test install uninstall deb test-deb
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
	@$(MAKE) --no-print-directory test-deb

# ---- Installing (issue 16) ---------------------------------------------------------------------------
# `sudo make install` puts the release binary, the man page tuner(1) and the bash, zsh and fish
# completions under PREFIX (staged under DESTDIR, for packagers); `make uninstall` removes exactly
# those files. The man page and the completions are printed by the binary itself from its flag table
# (`--generate-manual`, `--generate-completion-script`), so they always match its --help.
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(PREFIX)/bin
MANDIR = $(PREFIX)/share/man/man1
BASH_COMPLETION_DIR = $(PREFIX)/share/bash-completion/completions
# zsh searches site-functions under /usr/local; Debian's zsh searches vendor-completions under /usr.
ZSH_COMPLETION_DIR = $(PREFIX)/share/zsh/$(if $(filter /usr,$(PREFIX)),vendor-completions,site-functions)
FISH_COMPLETION_DIR = $(PREFIX)/share/fish/vendor_completions.d
INSTALLED = $(BINDIR)/tuner $(MANDIR)/tuner.1.gz $(BASH_COMPLETION_DIR)/tuner \
    $(ZSH_COMPLETION_DIR)/_tuner $(FISH_COMPLETION_DIR)/tuner.fish
# The binary installed and the one generating the pages (`make deb` uses its static build).
TUNER_BIN ?= .build/release/tuner
GENERATED = .build/generated

# It builds first when it can; under sudo, whose PATH often lacks the Swift toolchain, it installs the
# binary `make build` made.
install:
	@if [ "$(TUNER_BIN)" = .build/release/tuner ]; then \
	    if command -v swift >/dev/null; then $(MAKE) --no-print-directory build; \
	    elif [ ! -x "$(TUNER_BIN)" ]; then \
	        echo "Error: no swift in PATH and no $(TUNER_BIN); run 'make build' first, then 'sudo make install'." >&2; \
	        exit 1; \
	    fi; \
	fi
	@$(MAKE) --no-print-directory generated TUNER_BIN=$(TUNER_BIN)
	install -D -m 755 $(TUNER_BIN) $(DESTDIR)$(BINDIR)/tuner
	install -D -m 644 $(GENERATED)/tuner.1.gz $(DESTDIR)$(MANDIR)/tuner.1.gz
	install -D -m 644 $(GENERATED)/tuner.bash $(DESTDIR)$(BASH_COMPLETION_DIR)/tuner
	install -D -m 644 $(GENERATED)/_tuner $(DESTDIR)$(ZSH_COMPLETION_DIR)/_tuner
	install -D -m 644 $(GENERATED)/tuner.fish $(DESTDIR)$(FISH_COMPLETION_DIR)/tuner.fish

uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))

.PHONY: generated
generated:
	@mkdir -p $(GENERATED)
	$(TUNER_BIN) --generate-manual | gzip -9n > $(GENERATED)/tuner.1.gz
	$(TUNER_BIN) --generate-completion-script bash > $(GENERATED)/tuner.bash
	$(TUNER_BIN) --generate-completion-script zsh > $(GENERATED)/_tuner
	$(TUNER_BIN) --generate-completion-script fish > $(GENERATED)/tuner.fish

# `make deb`: tuner_VERSION_ARCH.deb in the package folder, built with dpkg-deb from a release build that
# links the Swift runtime statically (so the package needs no Swift toolchain), in its own build folder.
# Depends is what dpkg-shlibdeps finds the binary linked to (libfftw3-single3, libasound2,
# libncursesw6, libsndfile1, and libc6, libstdc++6…); Recommends: the ALSA plugins (desktop sound
# servers) and espeak-ng (--speak). `-z now`: bind every symbol at start (Debian's hardening, lintian). Lintian checks the package when it is installed; `make deb-lint`
# installs it first (it is large, so `make deb` and `make test` do not).
DEB_DEPS := dpkg-dev
STATIC_BUILD = .build/static
deb: deps
	@$(MAKE) --no-print-directory install-missing PACKAGES="$(DEB_DEPS)"
	swift build -c release --static-swift-stdlib --scratch-path $(STATIC_BUILD) -Xlinker -z -Xlinker now
	scripts/make-deb.sh $(STATIC_BUILD)/release/tuner

.PHONY: deb-lint
deb-lint:
	@$(MAKE) --no-print-directory install-missing PACKAGES=lintian
	@$(MAKE) --no-print-directory deb

# `make test-deb` (part of `make test`): builds the .deb, installs it with apt-get, runs /usr/bin/tuner
# (--version and a file analysis) and removes it — on a machine where the package may be installed and
# removed: as root, with no other tuner package installed. Elsewhere it says why it does not run.
test-deb:
	scripts/test-deb.sh

# The engine's units, each tested directly (CTuner/tests, C++): built and run before the Swift suite.
ENGINE_TEST := .build/engine-unit-tests
ENGINE_CXX := $(shell command -v clang++ || command -v g++)
.PHONY: engine-test
engine-test: deps
	@mkdir -p .build
	$(ENGINE_CXX) -std=c++17 -O2 -Wall -Wextra -o $(ENGINE_TEST) CTuner/src/*.cpp CTuner/tests/*.cpp -lfftw3f -lm -lpthread
	$(ENGINE_TEST)

# `make fft-wisdom` — regathers the FFTW_PATIENT wisdom the engine imports (CTuner/src/FftWisdomText.cpp,
# see CTuner/src/FftWisdom.hpp): a few minutes. Its plans move the readings' last bits, so compare
# readings before and after (Benchmarks/same_readings.py) and commit it with the figures.
.PHONY: fft-wisdom
fft-wisdom: deps
	@mkdir -p .build
	$(ENGINE_CXX) -std=c++17 -O2 -Wall -Wextra -o .build/make-fft-wisdom CTuner/tools/make_fft_wisdom.cpp -lfftw3f
	.build/make-fft-wisdom CTuner/src/FftWisdomText.cpp

# `make block-gap-cost` — the engine's CPU per 20 ms capture block with and without a gap between blocks
# (CTuner/tools/block_gap_cost.cpp; BENCHMARKS.md, "Live: the engine's cost per block after a gap").
.PHONY: block-gap-cost
block-gap-cost: deps
	@mkdir -p .build
	$(ENGINE_CXX) -std=c++17 -O2 -Wall -Wextra -ICTuner/include -o .build/block-gap-cost CTuner/tools/block_gap_cost.cpp CTuner/src/*.cpp -lfftw3f -lm -lpthread
	.build/block-gap-cost $(or $(ROUNDS),2)

# `make bench` — the accuracy and speed benchmark (issue 4); see BENCHMARKS.md. Not part of `make test`.
# Benchmarks/setup.sh installs its Debian packages and a venv for librosa (pYIN) and prints the Python
# to use; the harness's self-tests run (Benchmarks/test_harness.py), the release binary is built and
# Benchmarks/bench.py runs everything in one go; then Benchmarks/settle_report.py scores the settled
# notes (issue 19: one announcement per note on real recordings and renders), and
# Benchmarks/weak_fundamental.py the octave on public plucks and renders with a weak fundamental (issue 13),
# and Benchmarks/poly_real.py how often --poly reports a string nobody played on the real recordings
# (issue 15, printed with its target); they always run, and make bench fails if the settle report did.
# Options: make bench OUR_WINDOW_SECONDS=0.2 BENCH_ARGS="--pyin full"
OUR_WINDOW_SECONDS ?=
BENCH_ARGS ?=

# `make bench-load` — the load check alone (issue 18): peak RSS of the release binary against 64 MiB with a
# slow reader, --device null and a 2 GB file (Benchmarks/load.py; LOAD_ARGS="--hour-seconds 600" shortens it).
LOAD_ARGS ?=
.PHONY: bench-load
bench-load: deps
	swift build -c release --product tuner && python3 Benchmarks/load.py $(LOAD_ARGS)

.PHONY: bench
bench: deps bench-load
	@python=$$(Benchmarks/setup.sh) && \
	"$$python" -m unittest discover -s Benchmarks -p 'test_*.py' && \
	swift build -c release --product tuner && \
	skip=$$(cat Benchmarks/out/pyin-skip.txt 2>/dev/null || true) && \
	rm -rf Benchmarks/out/numba-cache && \
	NUMBA_CACHE_DIR=$(CURDIR)/Benchmarks/out/numba-cache "$$python" Benchmarks/bench.py \
	  $(if $(OUR_WINDOW_SECONDS),--our-window-seconds $(OUR_WINDOW_SECONDS)) \
	  $${skip:+--skip-note "$$skip"} --strums $(BENCH_ARGS) && \
	{ "$$python" Benchmarks/settle_report.py; settle=$$?; \
	  "$$python" Benchmarks/weak_fundamental.py --ours .build/release/tuner && \
	  "$$python" Benchmarks/poly_real.py --ours .build/release/tuner && exit $$settle; }

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
