// Signals.hpp — test signals for the engine unit tests.
#pragma once

#include <cmath>
#include <random>
#include <vector>

#include "../src/Arithmetic.hpp"
#include "../src/PitchEngine.hpp"
#include "../src/Ring.hpp"

namespace signals {
/// Σ_k a_k sin(2π f·k·sqrt(1+B k²) t), k = 1…amplitudes.size(), amplitude a_k (0 skips k).
inline std::vector<float> partials(double f, const std::vector<double> &amplitudes, double fs, std::size_t n,
                                   double B = 0, double phase = 0.3) {
    std::vector<float> x(n);
    for (std::size_t i = 0; i < n; ++i) {
        double t = double(i) / fs, v = 0;
        for (std::size_t k = 1; k <= amplitudes.size(); ++k)
            v += amplitudes[k - 1] * std::sin(2 * ctuner::kPi * f * double(k) * std::sqrt(1 + B * double(k * k)) * t + phase * double(k));
        x[i] = float(v);
    }
    return x;
}
inline std::vector<float> sine(double f, double fs, std::size_t n, double amplitude = 0.5) {
    return partials(f, {amplitude}, fs, n);
}
inline ctuner::Ring ringOf(const std::vector<float> &x) {
    ctuner::Ring r(x.size());
    r.push(x.data(), x.size());
    return r;
}
inline double cents(double a, double b) { return 1200.0 * std::log2(a / b); }
/// Every result of a default engine at `fs` fed `x` in one call.
inline std::vector<ct_result> resultsOf(const std::vector<float> &x, double fs) {
    ct_config c;
    ct_config_default(&c, fs);
    ctuner::PitchEngine engine(c);
    std::vector<ct_result> results;
    engine.onResultReady = [&](ct_result r) { results.push_back(r); };
    engine.process(x.data(), x.size());
    return results;
}
} // namespace signals
