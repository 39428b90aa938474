// Nsdf.cpp — see Nsdf.hpp.
#include "Nsdf.hpp"

#include "Arithmetic.hpp"

#include <algorithm>
#include <cmath>

namespace ctuner {

Nsdf::Nsdf(std::size_t window, std::size_t minLag, std::size_t lagLimit)
    : window_(window), minLag_(minLag), lagLimit_(lagLimit), fft_(nextPow2(window + lagLimit + 1), true),
      nsdf_(lagLimit + 3, 0.0) {}

Period Nsdf::periodOf(const float *x) {
    RealFFT &f = fft_;
    const std::size_t W = window_;
    const std::size_t M = f.size;
    std::vector<double> &nsdf = nsdf_;
    // Without its mean: a DC offset makes the autocorrelation positive at every lag, so the NSDF
    // would never cross zero and no key maximum (no pitch) would be found.
    const float mean = float(sumOf(x, W) / double(W));
    for (std::size_t j = 0; j < W; ++j) f.in[j] = x[j] - mean;
    f.padFrom(W);
    const float *centred = f.in;  // kept by the r2c plan
    auto xc = [&](std::size_t j) { return double(centred[j]); };
    fftwf_execute(f.forward);
    for (std::size_t i = 0; i < M / 2 + 1; ++i) {
        float re = f.out[i][0], im = f.out[i][1];
        f.out[i][0] = re * re + im * im;
        f.out[i][1] = 0.0f;
    }
    fftwf_execute(f.inverse);  // f.acf[τ] = M · r(τ)
    // m(τ) = Σ_{j<W−τ} x_j² + x_{j+τ}², updated from m(τ−1).
    double m = 2.0 * sumOfSquares(centred, W);
    const double scale = 1.0 / double(M);
    const double energy0 = m;
    const std::size_t last = std::min(lagLimit_, W - 1);
    const std::size_t end = std::min(last + 2, W);
    // m(τ) first (a running difference), then the ratios in a loop of independent divisions.
    for (std::size_t tau = 0; tau < end; ++tau) {
        if (tau > 0) m -= xc(tau - 1) * xc(tau - 1) + xc(W - tau) * xc(W - tau);
        nsdf[tau] = m;
    }
    // m(τ) under 1e-12 of m(0) is rounding left of a silent stretch, not a denominator.
    const double tiny = 1e-12 * energy0;
    for (std::size_t tau = 0; tau < end; ++tau) {
        const double mt = nsdf[tau];
        double r = double(f.acf[tau]) * scale;
        nsdf[tau] = (mt > tiny && mt > 0) ? 2.0 * r / mt : 0.0;
    }
    // Key maxima: the highest point between each positive-going and negative-going zero crossing.
    auto scan = [&](auto &&visit) {
        std::size_t tau = 1;
        while (tau <= last && nsdf[tau] > 0) ++tau;  // leave the central lobe
        while (tau <= last) {
            while (tau <= last && nsdf[tau] <= 0) ++tau;
            if (tau > last) break;
            std::size_t peak = tau;
            while (tau <= last && nsdf[tau] > 0) {
                if (nsdf[tau] > nsdf[peak]) peak = tau;
                ++tau;
            }
            if (tau > last && peak == last) break;  // lobe cut by the lag range: not a whole maximum
            if (peak >= minLag_ && !visit(peak)) return;
        }
    };
    double best = 0;
    scan([&](std::size_t p) {
        best = std::max(best, nsdf[p]);
        return true;
    });
    if (best <= 0) return {};
    const double threshold = kKeyMaximumRatio * best;
    std::size_t chosen = 0;
    scan([&](std::size_t p) {
        if (nsdf[p] < threshold) return true;
        chosen = p;
        return false;
    });
    if (chosen == 0) return {};
    // Parabolic interpolation of the peak.
    double a = nsdf[chosen - 1], b = nsdf[chosen], c = nsdf[chosen + 1];
    double denom = a - 2 * b + c;
    double shift = (std::abs(denom) > 1e-12) ? 0.5 * (a - c) / denom : 0.0;
    shift = std::max(-0.5, std::min(0.5, shift));
    return {double(chosen) + shift, std::min(1.0, b - 0.25 * (a - c) * shift)};
}

} // namespace ctuner
