// OctaveGuard.hpp — is the fundamental of half the period's frequency there after all?
//
// The NSDF's 0.85 rule (Nsdf.hpp) takes the first key maximum; a string whose fundamental has faded
// under a strong 2nd partial repeats at the half period almost as well, and reads an octave up. This
// guard looks for the partials of coarse/2 at odd multiples (1 and 3), where no partial of coarse lies,
// on a frame kFramePeriods periods of coarse/2 long, where they are resolved; once a note reads at coarse/2,
// its partials 3 and 5 alone keep that octave after its fundamental has faded out.
#pragma once

#include "Ring.hpp"
#include "SpectralPeaks.hpp"

namespace ctuner {

/// The guard's answer for a period is kept for up to 50 ms (it costs a long FFT); any other period
/// (beyond kOctaveRecheckCents) asks again at once.
constexpr double kOctaveRecheckSeconds = 0.05;
constexpr double kOctaveRecheckCents = 50.0;

/// Whether partials 1 and 3 of coarse/2 stand out of the newest input in `history`. `previous` is the
/// note read last (Hz, or 0): a string that was reading at coarse/2 keeps that octave more easily as
/// its fundamental fades.
bool subharmonicPresent(SpectralFrames &spectra, const Ring &history, std::size_t frameMin, std::size_t frameMax,
                        double coarse, double previous);

} // namespace ctuner
