// Nsdf.hpp — the period of one window by the normalised square difference function.
//
// P. McLeod and G. Wyvill, "A Smarter Way to Find Pitch", Proc. ICMC 2005 (the "MPM" method):
// n(τ) = 2 r(τ) / m(τ), r the autocorrelation (here through an FFT), m(τ) = Σ x_j² + x_{j+τ}².
// The period is the first key maximum that reaches kKeyMaximumRatio of the highest one.
#pragma once

#include <cstddef>
#include <vector>

#include "RealFft.hpp"

namespace ctuner {

/// The first key maximum within this ratio of the highest is the period (McLeod and Wyvill's k, who
/// propose 0.8–1.0): lower, a strong 2nd harmonic's maximum at the half period no longer pulls the
/// reading an octave up, and a missing fundamental still gives its own period; a maximum at a
/// multiple of the period — an octave low — is passed over for the first one. 0.85 since the
/// engine's first version; the attack check since a break uses the same ratio (OnsetGuard.cpp).
constexpr double kKeyMaximumRatio = 0.85;

/// A period found: lag in samples of the analysed signal (fractional), 0 when none; clarity = n(lag).
struct Period {
    double lag = 0;
    double clarity = 0;
};

class Nsdf {
public:
    /// For windows of `window` samples, lags minLag…lagLimit. The FFT (nextpow2(window + lagLimit + 1),
    /// no circular wrap within the lags searched) and its buffers are made here.
    Nsdf(std::size_t window, std::size_t minLag, std::size_t lagLimit);

    /// The MPM period of the `window` samples at x (oldest first).
    Period periodOf(const float *x);

    /// n(τ) of the last periodOf, τ = 0…lagLimit (for tests).
    double at(std::size_t tau) const { return nsdf_[tau]; }
    std::size_t window() const { return window_; }

private:
    std::size_t window_, minLag_, lagLimit_;
    RealFFT fft_;
    std::vector<double> nsdf_;
};

} // namespace ctuner
