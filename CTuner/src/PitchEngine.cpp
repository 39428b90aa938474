/*
 * PitchEngine.cpp — the tuner's pitch engine: the input cut into hops, each hop analysed by the
 * Tracker (Tracker.cpp) and its result fired through onResultReady.
 *
 * Two stages per analysis hop, each in its own unit (one algorithm per file, its paper cited there):
 *
 * 1. Period decision (which note, which octave): the normalised square difference function (NSDF) of
 *    McLeod and Wyvill (Nsdf.cpp) over a long window of 3.5 periods of the lowest note and a short one
 *    of the newest 45 ms (PeriodDecision.cpp), on a copy of the input decimated to 20–24 kHz
 *    (Decimator.hpp); an octave guard (OctaveGuard.cpp) for a fundamental faded under its 2nd partial.
 * 2. Frequency refinement (sub-cent): the phase vocoder on each partial (SpectralPeaks.cpp), the
 *    partials fitted to the stiff-string series (PartialFit.cpp) by PartialSearch.cpp, and a lone
 *    sinusoid measured by maximum likelihood (LoneSinusoid.cpp).
 * Attacks over a ringing note are heard by OnsetGuard.cpp.
 *
 * Buffers (all made in the constructor, with the FFTW plans; process() allocates nothing):
 *  - history: a ring of the newest input, long enough for 1.5 × the longest refinement frame;
 *  - decimated history for the NSDF: W_d = ceil(3.5 · fs_d / min_frequency) samples, FFT size
 *    nextpow2(W_d + max_lag + 1);
 *  - refinement frames: L = clamp(6 periods, 32 ms, 6 periods of min_frequency); the pair's offset D
 *    grows from L/2 at a note's onset to L once the note has held that long, so a held note is
 *    measured over 2L samples and a new one locks after 1.5L; one FFT plan per power of two
 *    nextpow2(L_min) … nextpow2(L_max).
 * The lengths are in Geometry.cpp.
 */
#include "PitchEngine.hpp"

#include "Decimator.hpp"
#include "Geometry.hpp"
#include "Ring.hpp"
#include "Tracker.hpp"

#include <algorithm>
#include <cmath>

namespace ctuner {
namespace {
/// Input samples are clamped to ±4 (12 dB over full scale): a wild value cannot overflow the sums.
constexpr float kInputLimit = 4.0f;
/// The input is cleaned a run of at most this many samples at a time (on the stack).
constexpr std::size_t kChunk = 256;
} // namespace

struct PitchEngine::Impl {
    Geometry geometry;
    Ring history;
    Ring decimated;
    Decimator decimator;
    Tracker tracker;
    std::size_t sinceHop = 0;
    unsigned long long consumed = 0;

    explicit Impl(const ct_config &c)
        : geometry(c), history(geometry.historyLength), decimated(geometry.decimatedLength),
          decimator(geometry.decimation), tracker(geometry) {}

    void reset() {
        history.clear();
        decimated.clear();
        decimator.reset();
        sinceHop = 0;
        consumed = 0;
        tracker.reset();
    }
};

PitchEngine::PitchEngine(const ct_config &config) : impl_((Geometry::validate(config), new Impl(config))) {}
PitchEngine::~PitchEngine() = default;

void PitchEngine::process(const float *samples, std::size_t count) {
    Impl &e = *impl_;
    const std::size_t hop = e.geometry.hop;
    float chunk[kChunk];  // the input cleaned, a run at a time (never past the end of a hop)
    while (count > 0) {
        const std::size_t run = std::min({count, hop - e.sinceHop, kChunk});
        for (std::size_t i = 0; i < run; ++i) {
            float x = samples[i];
            if (!std::isfinite(x)) x = 0.0f;
            chunk[i] = std::max(-kInputLimit, std::min(kInputLimit, x));
        }
        e.history.push(chunk, run);
        e.decimator.push(chunk, run, e.decimated);
        samples += run;
        count -= run;
        e.consumed += run;
        e.sinceHop += run;
        if (e.sinceHop == hop) {
            e.sinceHop = 0;
            ct_result r;
            e.tracker.analyse(e.history, e.decimated, e.consumed, r);
            if (onResultReady) onResultReady(r);
        }
    }
}

void PitchEngine::reset() { impl_->reset(); }
std::size_t PitchEngine::hopSize() const { return impl_->geometry.hop; }
std::size_t PitchEngine::windowSize() const {
    const Geometry &g = impl_->geometry;
    return std::max(g.nsdfWindow * g.decimation, g.frameMax + g.frameMax / 2);
}

} // namespace ctuner
