// PartialFit.cpp — see PartialFit.hpp.
#include "PartialFit.hpp"

#include <algorithm>
#include <cmath>

namespace ctuner {

double stiffness(double k, double B) { return std::sqrt((1 + B * k * k) / (1 + B)); }

double seriesAt(int k, const StiffString &s) { return double(k) * s.f1 * stiffness(k, s.B); }

StiffString fitPartials(const Partial *partials, std::size_t count, StiffString start) {
    double f1 = start.f1, B = start.B;
    // Weights ∝ k²·A_k²: the inverse variance of f_k / k. (Weights |X_k|² alone were tried:
    // instrument p95 0.343 ¢ against 0.214 ¢ — BENCHMARKS.md.)
    // B from the squared series, which is exact: (f_k/k)² = f0² + f0²·B·k², a straight line in k² with
    // intercept f0² and slope f0²·B, so B = slope / intercept. Its points Y_k = (f_k/k)² have variance
    // 4·Y_k·var(f_k/k), so each weighs k²·A_k² / Y_k. (The line f_k/k ≈ f1·(1 + B(k²−1)/2) used before
    // is first order in B·k²: a piano's A0 with B = 10⁻³ has B·k² = 0.58 at its 24th partial, and read
    // 1.8 ¢ sharp on it — CTuner/tests/RangeTests.cpp; on guitar strings, B·k² < 0.06, the two agree.)
    double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (std::size_t i = 0; i < count; ++i) {
        const Partial &p = partials[i];
        double k = p.k, y = (p.frequency / k) * (p.frequency / k);
        if (!(y > 0)) continue;
        double w = k * k * p.magnitude * p.magnitude / y;
        double x = k * k;
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
            if (a > 0) B = std::max(0.0, std::min(kMaxInharmonicity, b / a));
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
