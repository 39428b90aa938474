// PartialFit.cpp — see PartialFit.hpp.
#include "PartialFit.hpp"

#include <algorithm>
#include <cmath>

namespace ctuner {

double stiffness(double k, double B) { return std::sqrt((1 + B * k * k) / (1 + B)); }

double seriesAt(int k, const StiffString &s) { return double(k) * s.f1 * stiffness(k, s.B); }

StiffString fitPartials(const Partial *partials, std::size_t count, StiffString start) {
    double f1 = start.f1, B = start.B;
    // Weights ∝ k²·A_k²: the inverse variance of y_k = f_k / k. (Weights |X_k|² alone were tried:
    // instrument p95 0.343 ¢ against 0.214 ¢ — BENCHMARKS.md.)
    double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (std::size_t i = 0; i < count; ++i) {
        const Partial &p = partials[i];
        double k = p.k, w = k * k * p.magnitude * p.magnitude;
        double x = k * k - 1, y = p.frequency / k;
        sw += w;
        sx += w * x;
        sy += w * y;
        sxx += w * x * x;
        sxy += w * x * y;
    }
    if (sw <= 0) return {f1, B};
    B = 0;
    if (count >= 3) {
        double det = sw * sxx - sx * sx;
        if (det > 1e-12 * sw * sxx) {
            double a = (sxx * sy - sx * sxy) / det;
            double b = (sw * sxy - sx * sy) / det;
            if (a > 0) B = std::max(0.0, std::min(kMaxInharmonicity, 2.0 * b / a));
        }
    } else if (partials[0].k == 1) {
        // Too few partials to tell inharmonicity from noise: trust the first partial itself.
        return {partials[0].frequency, B};
    }
    // f1 for that B, with the exact model: y_k = f1 · g_k(B).
    return {firstPartialFor(partials, count, B, f1), B};
}

double firstPartialFor(const Partial *partials, std::size_t count, double B, double fallback) {
    double num = 0, den = 0;
    for (std::size_t i = 0; i < count; ++i) {
        const Partial &p = partials[i];
        double k = p.k, w = k * k * p.magnitude * p.magnitude;
        double g = stiffness(k, B);
        num += w * (p.frequency / k) * g;
        den += w * g * g;
    }
    return den > 0 ? num / den : fallback;
}

} // namespace ctuner
