// RealFft.hpp — one real-input FFT size with its buffers and FFTW plans, made once (FFTW single
// precision). Planned with FFTW_ESTIMATE after importing the engine's FFTW_PATIENT wisdom
// (FftWisdom.hpp): patient plans without run-time planning. FFTW_MEASURE at run time took ~1.5 s per
// engine to plan and its results changed in the last bits from run to run (BENCHMARKS.md, "CPU ratio").
#pragma once

#include <fftw3.h>

#include <cstddef>

namespace ctuner {

/// A real-input FFT of one size: input buffer, complex output, plans. Owns them all. The constructor
/// allocates and plans (under a process-wide lock: FFTW's planner is not thread-safe, executing a plan
/// is); nothing else allocates.
struct RealFFT {
    std::size_t size = 0;
    float *in = nullptr;
    fftwf_complex *out = nullptr;
    float *acf = nullptr;  // the inverse's output (for autocorrelation), so `in` keeps its zero padding
    fftwf_plan forward = nullptr;
    fftwf_plan inverse = nullptr;  // complex `out` → real `acf`
    std::size_t dirty = 0;         // in[dirty…size) is zero (the r2c plan leaves `in` as it was)

    RealFFT(std::size_t n, bool withInverse);
    ~RealFFT();
    RealFFT(const RealFFT &) = delete;
    RealFFT &operator=(const RealFFT &) = delete;

    /// After in[0…n) was written: zero the rest of the input, touching only what an earlier, longer
    /// frame left there.
    void padFrom(std::size_t n);
};

} // namespace ctuner
