// Decimator.hpp — the input at fs, low-pass filtered and decimated by a whole factor for the period
// decision (NSDF).
//
// A linear-phase FIR: the ideal low-pass at 0.4 × the decimated rate (a sinc) under a Blackman window,
// 16·factor − 1 taps (31 at 44.1/48 kHz), evaluated only at the kept samples (polyphase). At 48 kHz
// (decimated 24 kHz) it is flat within 0.05 dB to 6 kHz, −1.3 dB at 8 kHz, −6 dB at 9.6 kHz, −26 dB at
// the decimated Nyquist frequency and under −78 dB from 14.4 kHz on; at 44.1 kHz the same in
// proportion. The 2-tap moving average it replaces passed 19.2 kHz at −14 dB, folded onto 4.8 kHz, and
// all of the noise between 12 and 24 kHz. Group delay (taps − 1)/2 input samples: 0.31 ms at 48 kHz.
// Design: A. V. Oppenheim and R. W. Schafer, "Discrete-Time Signal Processing", 3rd ed., §7.5
// (windowed FIR) and §4.6 (decimation).
//
// Measured on the benchmark corpus against the moving average (BENCHMARKS.md, "The decimator"):
// noise is what it changes — voicing misses at 0 dB SNR 4.90 → 3.03 %, at 10 dB 0.021 → 0 %; the
// cutoff at the decimated Nyquist frequency (0.5) instead of 0.4 gave 4.25 % and 0.011 %.
#pragma once

#include <cstddef>
#include <vector>

#include "Ring.hpp"

namespace ctuner {

/// Taps per unit of decimation factor (taps = kTapsPerFactor · factor − 1): the transition band then
/// spans 0.3…0.6 × the decimated rate (Blackman's main lobe, 5.5/taps cycles per sample).
constexpr std::size_t kTapsPerFactor = 16;
/// The cutoff (−6 dB), as a fraction of the decimated rate: the partials that decide a period are far
/// below it (a note's fundamental ≤ 4.2 kHz), and the noise above it no longer reaches the NSDF.
constexpr double kCutoffOfDecimatedRate = 0.4;
/// Input is filtered this many samples at a time, behind the newest taps − 1 of the previous block
/// in one line, rather than pushed through a ring sample by sample (the filter was 6.6 % of the
/// tuner's CPU on the 120 s speed file; the whole run went from 3.84 to 3.71 ms per audio second, min
/// of 5 interleaved runs; readings bit-identical).
constexpr std::size_t kDecimatorBlock = 256;

class Decimator {
public:
    /// Designs the filter for `factor` (1: no filter, samples pass as they are) and allocates its state.
    explicit Decimator(std::size_t factor);
    std::size_t factor() const { return factor_; }
    /// The filter's taps (for tests): symmetric, summing to 1.
    const std::vector<float> &taps() const { return taps_; }

    /// Feeds n input samples; each completed output sample is pushed into `out`.
    void push(const float *x, std::size_t n, Ring &out);
    void reset();

private:
    std::size_t factor_;
    std::vector<float> taps_;
    std::vector<float> line_;  // the newest taps − 1 input samples, then room for a block
    std::size_t count_ = 0;
};

} // namespace ctuner
