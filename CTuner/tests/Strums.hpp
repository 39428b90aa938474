// Strums.hpp — synthetic strums for the polyphonic analyser's tests: plucked stiff strings (Fletcher's
// partial frequencies, a pluck-position comb sin(kπp)/k² in amplitude, partials decaying faster the
// higher they are), struck a few ms apart, with optional white noise.
#pragma once

#include <cmath>
#include <random>
#include <vector>

#include "../src/Arithmetic.hpp"

namespace strums {

/// The six open strings of a guitar in standard tuning (E2 A2 D3 G3 B3 E4), A4 = 440 Hz.
inline std::vector<double> standardTuning() {
    std::vector<double> t;
    for (int midi : {40, 45, 50, 55, 59, 64}) t.push_back(440.0 * std::exp2((midi - 69) / 12.0));
    return t;
}

struct PluckedString {
    double frequency;      // first partial, Hz (0: muted, nothing added)
    double start = 0;      // seconds after the strum
    double amplitude = 0.15;
    double B = 1e-4;       // inharmonicity
    double pluckAt = 0.2;  // pluck position, fraction of the string
};

/// A strum of `strings` sampled at fs for `seconds`, plus white noise of RMS `noise`.
inline std::vector<float> strum(const std::vector<PluckedString> &strings, double fs, double seconds, double noise = 0,
                                unsigned seed = 1) {
    std::vector<float> x(std::size_t(seconds * fs), 0.0f);
    for (const PluckedString &s : strings) {
        if (s.frequency <= 0) continue;
        const double f0 = s.frequency / std::sqrt(1 + s.B);
        for (int k = 1; k * s.frequency < 0.45 * fs && k <= 40; ++k) {
            const double a = s.amplitude * std::sin(k * ctuner::kPi * s.pluckAt) / double(k * k) * 4.0;
            const double fk = k * f0 * std::sqrt(1 + s.B * k * k);
            const double decay = 0.6 + 0.15 * k;  // per second
            const double phase = 0.7 * k + s.frequency;
            for (std::size_t i = std::size_t(s.start * fs); i < x.size(); ++i) {
                const double t = double(i) / fs - s.start;
                x[i] += float(a * std::exp(-decay * t) * std::sin(2 * ctuner::kPi * fk * t + phase));
            }
        }
    }
    if (noise > 0) {
        std::mt19937 rng(seed);
        std::normal_distribution<double> n(0, noise);
        for (float &v : x) v += float(n(rng));
    }
    return x;
}

/// Each string of `targets` detuned by cents[i] (NaN: muted), struck gap seconds after the one before.
inline std::vector<PluckedString> detuned(const std::vector<double> &targets, const std::vector<double> &cents,
                                          double gap = 0.008) {
    std::vector<PluckedString> s;
    for (std::size_t i = 0; i < targets.size(); ++i) {
        PluckedString p;
        p.frequency = std::isnan(cents[i]) ? 0 : targets[i] * std::exp2(cents[i] / 1200.0);
        p.start = gap * double(i);
        s.push_back(p);
    }
    return s;
}

/// A strum of the standard tuning detuned by `cents` (struck 8 ms apart, white noise of RMS 0.0005) in
/// which string `damped` is damped by a palm `at` seconds after the strum: from then on its own signal
/// is multiplied by e^(−t/10 ms), as strums.py's damped set does, while the others ring on.
inline std::vector<float> strumWithOneDamped(const std::vector<double> &cents, std::size_t damped, double at, double fs,
                                             double seconds) {
    std::vector<PluckedString> others = detuned(standardTuning(), cents), alone;
    alone.push_back(others[damped]);
    others[damped].frequency = 0;
    std::vector<float> x = strum(others, fs, seconds, 0.0005);
    const std::vector<float> y = strum(alone, fs, seconds);
    for (std::size_t i = 0; i < x.size(); ++i) {
        const double t = double(i) / fs;
        x[i] += float(y[i] * (t < at ? 1.0 : std::exp(-(t - at) / 0.010)));
    }
    return x;
}

} // namespace strums
