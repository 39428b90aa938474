// StrumPass.hpp — a strum analysed at one frame length: per hop, one Blackman–Harris frame pair ending
// at the newest sample (the phase vocoder's pair: SpectralFrames), and in it every string's search, the
// partials other strings' series claim, whether each string is heard, and its confirmation
// (StringPartials). PolyAnalyser runs two of them, on 0.25 s and 0.5 s frames, and decides between their
// readings.
#pragma once

#include <cstddef>
#include <vector>

#include "Ring.hpp"
#include "SpectralPeaks.hpp"
#include "StringPartials.hpp"

namespace ctuner {

/// No partial is looked for above this (Hz) at sample rate `fs` (kPartialLimitHz, kPartialLimitOfRate).
double partialLimitHz(double fs);

struct StrumPass {
    /// Every string of the tuning (already checked by PolyAnalyser), analysed on frames of
    /// `frameSeconds` at sample rate `fs`; `longFrames`: whether it is the long frames' pass
    /// (SharedSpectrum::longFrames). Makes every buffer and FFTW plan.
    StrumPass(std::vector<StringPartials> strings, double fs, double frameSeconds, bool longFrames);
    /// One hop: the frame pair ending at the newest sample of `history` (which holds at least
    /// frame + advance samples), then each string searched, claimed and resolved, once more from the
    /// resolved fits, and confirmed. Allocates nothing.
    void run(const Ring &history);

    std::vector<StringPartials> strings;
    double fs;
    std::size_t frame, advance;
    SpectralFrames frames;
    bool attack = false;  // the frame pair's energy rose kAttackEnergyRise (set by run)
    double binHz = 0;     // of its spectrum (set by run)
    std::size_t bins = 0; // of its spectrum (set by run)
    double toAmplitude;   // a partial's magnitude × this = the amplitude of its sinusoid
    double collisionHz;   // two partials closer than this are one peak to it (kCollisionBins)
    bool longFrames;
};

} // namespace ctuner
