// RangeTests.cpp — the engine's default range reaches a piano's lowest key, A0 = 27.5 Hz
// (ctuner_api.cpp, kDefaultMinFrequency), and reads it to a fraction of a cent.
#include "Check.hpp"
#include "Signals.hpp"

#include "../src/Geometry.hpp"
#include "../src/PitchEngine.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

using namespace ctuner;

namespace {
constexpr double kA0 = 27.5;

/// A struck piano string, the stiff-string series of Fletcher (1964): partial k at
/// k·f1·sqrt((1 + B k²)/(1 + B)), so the first partial is exactly f1; amplitudes of a string struck
/// at 1/8 of its length, each partial decaying faster than the one below.
std::vector<float> struckString(double f1, double B, double fs, double seconds) {
    const std::size_t n = std::size_t(seconds * fs);
    std::vector<float> x(n);
    std::mt19937 rng(27);
    std::uniform_real_distribution<double> phase(0, 2 * kPi);
    for (int k = 1; k <= 60; ++k) {
        const double fk = k * f1 * std::sqrt((1 + B * k * k) / (1 + B));
        if (fk > 0.45 * fs) break;
        const double a = 0.3 * std::abs(std::sin(kPi * k / 8.0)) / k, tau = 4.0 / (1 + 0.3 * (k - 1)), p = phase(rng);
        for (std::size_t i = 0; i < n; ++i) {
            const double t = double(i) / fs;
            x[i] += float(a * std::exp(-t / tau) * std::sin(2 * kPi * fk * t + p));
        }
    }
    return x;
}

/// The median frequency the engine reads (default configuration) from `from` seconds on; 0 if none.
double medianReading(const std::vector<float> &x, double fs, double from, std::size_t *pitched = nullptr) {
    ct_config c;
    ct_config_default(&c, fs);
    PitchEngine engine(c);
    std::vector<double> f;
    engine.onResultReady = [&](ct_result r) {
        if (r.has_pitch && r.time >= from) f.push_back(r.frequency);
    };
    engine.process(x.data(), x.size());
    if (pitched) *pitched = f.size();
    if (f.empty()) return 0;
    std::nth_element(f.begin(), f.begin() + f.size() / 2, f.end());
    return f[f.size() / 2];
}
} // namespace

TEST(defaultRangeReachesUnderA0WithItsWindowsSizedForIt) {
    ct_config c;
    ct_config_default(&c, 48000);
    CHECK(c.min_frequency < kA0 * std::pow(2.0, -50.0 / 1200) && c.min_frequency > 25.96,
          "min_frequency %g Hz: not between G#0 (25.96 Hz) and A0 − 50 ¢", c.min_frequency);
    for (double fs : {44100.0, 48000.0, 96000.0}) {
        ct_config_default(&c, fs);
        const Geometry g(c);
        CHECK(double(g.maxLag) >= g.fsDecimated / (kA0 * 0.97), "max lag %zu misses A0's period", g.maxLag);
        CHECK(double(g.nsdfWindow) >= kLongWindowPeriods * g.fsDecimated / kA0, "long window %zu under 3.5 A0 periods", g.nsdfWindow);
        // The floor's other bound: the long NSDF's FFT stays 4096 points (8192 cost 28 % more CPU).
        CHECK(nextPow2(g.nsdfWindow + g.maxLag + 1) == 4096, "at %g Hz the NSDF's FFT is %zu points", fs,
              nextPow2(g.nsdfWindow + g.maxLag + 1));
    }
}

TEST(engineReadsAnA0SineWithinATenthOfACent) {
    for (double fs : {44100.0, 48000.0}) {
        std::size_t pitched = 0;
        const double f = medianReading(signals::sine(kA0, fs, std::size_t(2.0 * fs)), fs, 0.5, &pitched);
        CHECK(pitched > 100 && std::abs(signals::cents(f, kA0)) < 0.1, "at %g Hz: %zu readings, median %.6f Hz", fs, pitched, f);
    }
}

TEST(engineReadsAStruckPianoA0WithInharmonicPartialsWithinHalfACent) {
    // B of a piano's lowest strings: about 3·10⁻⁴ (a concert grand) to 10⁻³ (a small upright) —
    // Fletcher & Rossing, The Physics of Musical Instruments (2nd ed., 1998), §12.5 on inharmonicity,
    // and the measured B-versus-frequency curves of several pianos down to A0 at
    // welltemperedtune.com/tuning/bvalues. Its partials then run sharp: the 10th lies
    // 1200·log2(sqrt((1+100B)/(1+B))) = 42 ¢ (B = 5·10⁻⁴) to 82 ¢ (B = 10⁻³) above 10·f1; the first
    // partial is the note.
    for (double B : {3e-4, 5e-4, 1e-3}) {
        for (double fs : {44100.0, 48000.0}) {
            std::size_t pitched = 0;
            const double f = medianReading(struckString(kA0, B, fs, 3.0), fs, 0.5, &pitched);
            CHECK(pitched > 150 && std::abs(signals::cents(f, kA0)) < 0.5, "B %g at %g Hz: %zu readings, median %.6f Hz (%+.3f ¢)",
                  B, fs, pitched, f, signals::cents(f, kA0));
        }
    }
}
