// LoneSinusoid.hpp — the frequency of one sinusoid (a sine, a flute-like tone: no second partial) by
// maximum likelihood.
//
// D. C. Rife and R. R. Boorstyn, "Single-tone parameter estimation from discrete-time observations",
// IEEE Trans. Inf. Theory 20(5), 1974: the ω that maximises the energy of the samples' least-squares
// projection onto {cos ωn, sin ωn, 1} attains the Cramér–Rao bound above the threshold SNR. The phase
// vocoder on Blackman–Harris frames stays about 1.7× above it (on Hann frames 1.45×); this reaches
// 1.00× / 1.08× / 1.04× at 40 / 20 / 10 dB SNR (BENCHMARKS.md, "CRLB ratio").
#pragma once

#include <cstddef>

namespace ctuner {

/// How many of the N samples at x (the newest N of a stream, oldest first) a tone at `frequency`
/// has sounded for: N when it filled them all, else the samples since its onset, less its attack.
std::size_t samplesSinceOnset(const float *x, std::size_t N, double frequency, double fs);

/// The maximum-likelihood frequency (Hz) of one real sinusoid plus a constant in white noise, over
/// the N samples at x (oldest first) less any before the tone's onset (samplesSinceOnset), searched
/// within a tenth of a bin (of N) around `start` Hz.
double loneSinusoidFrequency(const float *x, std::size_t N, double start, double fs);

} // namespace ctuner
