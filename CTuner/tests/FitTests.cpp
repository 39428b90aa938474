// FitTests.cpp — the stiff-string fit (a pure function) and the lone-sinusoid estimator against the
// Cramér–Rao bound.
#include "Check.hpp"
#include "Signals.hpp"

#include "../src/LoneSinusoid.hpp"
#include "../src/PartialFit.hpp"

#include <random>

using namespace ctuner;

TEST(partialFitIsExactOnAHarmonicSeries) {
    std::vector<Partial> p;
    for (int k = 1; k <= 12; ++k) p.push_back({k, k * 110.0, 1.0 / k});
    StiffString fit = fitPartials(p.data(), p.size(), {109, 0});
    CHECK(std::abs(fit.f1 - 110) < 1e-9 && std::abs(fit.B) < 1e-12, "f1 %.12g B %g", fit.f1, fit.B);
}

TEST(partialFitRecoversF1AndBFromAStiffStringsPartialsWithinItsLinearisation) {
    // B comes from a straight line through f_k/k against k² − 1, which linearises sqrt(1 + B·k²):
    // at B = 1.5e-4 over 12 partials (B·k² = 0.02) that leaves f1 0.035 ¢ sharp and B 0.5 % low.
    // Measured here, and kept: readings must not move in a change that only splits the engine.
    const StiffString truth{82.41, 1.5e-4};
    std::vector<Partial> p;
    for (int k = 1; k <= 12; ++k) p.push_back({k, seriesAt(k, truth), 1.0 / k});
    StiffString fit = fitPartials(p.data(), p.size(), {82, 0});
    CHECK(std::abs(signals::cents(fit.f1, truth.f1)) < 0.05, "f1 %.9g", fit.f1);
    CHECK(std::abs(fit.B / truth.B - 1) < 0.01, "B %g", fit.B);
}

TEST(partialFitRecoversAMissingFundamentalFromTheUpperPartials) {
    const StiffString truth{110, 5e-5};
    std::vector<Partial> p;
    for (int k = 2; k <= 8; ++k) p.push_back({k, seriesAt(k, truth), 1.0});
    StiffString fit = fitPartials(p.data(), p.size(), {109, 0});
    CHECK(std::abs(signals::cents(fit.f1, truth.f1)) < 0.005, "f1 %.9g", fit.f1);
}

TEST(partialFitTrustsTheFirstPartialWhenTooFewToTellStiffness) {
    const Partial p[2] = {{1, 100.2, 1}, {2, 201.0, 1}};
    StiffString fit = fitPartials(p, 2, {100, 1e-3});
    CHECK(fit.f1 == 100.2 && fit.B == 0, "f1 %g B %g", fit.f1, fit.B);
}

TEST(partialFitClampsBToItsRange) {
    std::vector<Partial> p;
    const StiffString wild{100, 0.02}, compressed{100, -1e-3};
    for (int k = 1; k <= 6; ++k) p.push_back({k, seriesAt(k, wild), 1});
    CHECK(fitPartials(p.data(), p.size(), {100, 0}).B == kMaxInharmonicity, "B over the maximum");
    p.clear();
    for (int k = 1; k <= 6; ++k) p.push_back({k, k * 100.0 * std::sqrt(1 + compressed.B * k * k), 1});
    CHECK(fitPartials(p.data(), p.size(), {100, 0}).B == 0, "negative B");
}

TEST(partialFitLeavesTheStartWhenThePartialsWeighNothing) {
    const Partial p[3] = {{1, 100, 0}, {2, 200, 0}, {3, 300, 0}};
    StiffString fit = fitPartials(p, 3, {99, 1e-4});
    CHECK(fit.f1 == 99 && fit.B == 1e-4, "f1 %g B %g", fit.f1, fit.B);
}

TEST(loneSinusoidReachesTheCramerRaoBoundAt20dB) {
    // CRB for the frequency of one real sinusoid of amplitude A in white noise σ² over N samples
    // (Rife and Boorstyn 1974): var(ω̂) ≥ 12 / (SNR · N(N² − 1)), SNR = A²/(2σ²), ω in rad/sample.
    // The estimator's RMS error must be within 0.85…1.3 × the bound's (not below it either: that
    // would mean the noise was not what the test says).
    const double fs = 48000, A = 0.25, snrDb = 20, sigma = A / std::sqrt(2 * std::pow(10, snrDb / 10));
    const std::size_t N = 4096;
    const double crbOmega = std::sqrt(12.0 / (std::pow(10, snrDb / 10) * double(N) * (double(N) * N - 1)));
    std::mt19937 rng(13);
    std::normal_distribution<double> noise(0, sigma);
    std::uniform_real_distribution<double> phase(0, 2 * kPi), where(300, 301);
    double sumSq = 0;
    const int trials = 300;
    for (int t = 0; t < trials; ++t) {
        const double f = where(rng), ph = phase(rng);
        std::vector<float> x(N);
        for (std::size_t n = 0; n < N; ++n) x[n] = float(A * std::sin(2 * kPi * f * n / fs + ph) + noise(rng));
        const double start = f * (1 + 0.0005);  // the phase vocoder's estimate, within 0.1 bin
        const double e = 2 * kPi * (loneSinusoidFrequency(x.data(), N, start, fs) - f) / fs;
        sumSq += e * e;
    }
    const double ratio = std::sqrt(sumSq / trials) / crbOmega;
    std::printf("    lone sinusoid RMS error / Cramér–Rao bound at %g dB, N = %zu: %.3f\n", snrDb, N, ratio);
    CHECK(ratio > 0.85 && ratio < 1.3, "ratio %g", ratio);
}

TEST(loneSinusoidSkipsTheSilenceBeforeAnOnsetAndTheAttack) {
    const double fs = 48000;
    std::vector<float> x(8000, 0.0f);
    std::vector<float> tone = signals::sine(440, fs, 6000);
    std::copy(tone.begin(), tone.end(), x.begin() + 2000);
    const std::size_t kept = samplesSinceOnset(x.data(), x.size(), 440, fs);
    // 6000 samples of tone less the 5 ms (240 samples) of attack, within a half period.
    CHECK(std::abs(double(kept) - (6000 - 240)) < 60, "kept %zu", kept);
    // A steady tone loses at most its first piece (half a period) and no attack — where the window
    // is at most 128 half periods (6,981 samples at 440 Hz). Beyond that the pieces are longer than
    // half a period, their energies differ by the phase, and a steady tone of 8,000 samples is taken
    // for an onset and loses 5 ms (7,698 kept): measured here, left as it is (readings unchanged).
    const std::vector<float> steady = signals::sine(440, fs, 6900);
    const std::size_t whole = samplesSinceOnset(steady.data(), steady.size(), 440, fs);
    CHECK(whole + 2 * 55 >= 6900, "a steady tone was cut to %zu", whole);
    const double f = loneSinusoidFrequency(x.data(), x.size(), 440.3, fs);
    CHECK(std::abs(signals::cents(f, 440)) < 0.01, "read %.6f Hz", f);
}
