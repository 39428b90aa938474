// WindowCache.cpp — see WindowCache.hpp.
#include "WindowCache.hpp"

#include "Arithmetic.hpp"

#include <cmath>

namespace ctuner {
namespace {
// The 4-term Blackman–Harris coefficients (Harris 1978, table 1, "4-term (−92 dB)").
constexpr double kA0 = WindowCache::kCoherentGain, kA1 = 0.48829, kA2 = 0.14128, kA3 = 0.01168;
} // namespace

WindowCache::WindowCache(std::size_t maxLength) {
    for (Slot &s : slots_) s.values.resize(maxLength);
}

double WindowCache::reference(std::size_t n, std::size_t L) {
    const double t = 2.0 * kPi * double(n) / double(L - 1);
    return kA0 - kA1 * std::cos(t) + kA2 * std::cos(2 * t) - kA3 * std::cos(3 * t);
}

const float *WindowCache::get(std::size_t L) {
    Slot *slot = &slots_[0];
    for (Slot &w : slots_) {
        if (w.length == L) {
            w.used = ++clock_;
            return w.values.data();
        }
        if (w.used < slot->used) slot = &w;  // else the least recently used one is refilled
    }
    slot->length = L;
    slot->used = ++clock_;
    float *const values = slot->values.data();
    // cos(kθ) from cos θ by Chebyshev recurrence (no trig per sample). The window is symmetric, so
    // only its first half is computed, by four independent rotations e^{i n θ} (n ≡ j mod 4, each
    // stepped by e^{i 4θ}), which the CPU runs side by side.
    const double step = 2.0 * kPi / double(L - 1);
    constexpr std::size_t kLanes = 4;
    double cr[kLanes], ci[kLanes];
    for (std::size_t j = 0; j < kLanes; ++j) {
        cr[j] = std::cos(double(j) * step);
        ci[j] = std::sin(double(j) * step);
    }
    const double sr = std::cos(kLanes * step), si = std::sin(kLanes * step);
    const std::size_t half = (L + 1) / 2;  // values up to ⌈half/4⌉·4 ≤ L are written, then mirrored
    for (std::size_t n = 0; n < half; n += kLanes) {
        for (std::size_t j = 0; j < kLanes; ++j) {
            double c1 = cr[j], c2 = 2 * c1 * c1 - 1, c3 = c1 * (2 * c2 - 1);
            values[n + j] = float(kA0 - kA1 * c1 + kA2 * c2 - kA3 * c3);
            double nr = cr[j] * sr - ci[j] * si, ni = cr[j] * si + ci[j] * sr;
            cr[j] = nr;
            ci[j] = ni;
        }
        if ((n & 1023) == 1020) {  // renormalise against drift
            for (std::size_t j = 0; j < kLanes; ++j) {
                double mag = std::sqrt(cr[j] * cr[j] + ci[j] * ci[j]);
                cr[j] /= mag;
                ci[j] /= mag;
            }
        }
    }
    for (std::size_t n = 0; n < L / 2; ++n) values[L - 1 - n] = values[n];
    return values;
}

} // namespace ctuner
