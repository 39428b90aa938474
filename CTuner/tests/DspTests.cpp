// DspTests.cpp — the shared DSP units: ring, real FFT, window cache, decimator.
#include "Check.hpp"
#include "Signals.hpp"

#include "../src/Decimator.hpp"
#include "../src/FftWisdom.hpp"
#include "../src/RealFft.hpp"
#include "../src/Ring.hpp"
#include "../src/WindowCache.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

using namespace ctuner;

TEST(ringKeepsTheNewestSamplesContiguousAcrossItsWrap) {
    Ring r(5);
    const float first[7] = {1, 2, 3, 4, 5, 6, 7};
    r.push(first, 4);
    r.push(first + 4, 3);  // wraps
    const float *x = r.latest(5);
    for (int i = 0; i < 5; ++i) CHECK(x[i] == float(3 + i), "x[%d] = %g", i, x[i]);
    const float *earlier = r.latest(3, 2);
    CHECK(earlier[0] == 3 && earlier[2] == 5, "back 2: %g … %g", earlier[0], earlier[2]);
    r.push(8.0f);
    CHECK(r.latest(1)[0] == 8.0f, "newest %g", r.latest(1)[0]);
}

TEST(realFftPutsASineOnItsBinAndItsInverseGivesTheAutocorrelation) {
    RealFFT f(256, true);
    for (int n = 0; n < 256; ++n) f.in[n] = float(std::cos(2 * kPi * 10 * n / 256.0));
    fftwf_execute(f.forward);
    double at10 = std::hypot(f.out[10][0], f.out[10][1]), at11 = std::hypot(f.out[11][0], f.out[11][1]);
    CHECK(std::abs(at10 - 128) < 1e-3 && at11 < 1e-3, "|X10| = %g, |X11| = %g", at10, at11);
    for (int i = 0; i < 129; ++i) {
        f.out[i][0] = f.out[i][0] * f.out[i][0] + f.out[i][1] * f.out[i][1];
        f.out[i][1] = 0;
    }
    fftwf_execute(f.inverse);  // 256 · Σ x_n x_{n+τ} (circular) = 256 · 128 cos(2π·10τ/256)
    CHECK(std::abs(f.acf[0] / 256.0 - 128) < 1e-2, "r(0) = %g", f.acf[0] / 256.0);
    CHECK(std::abs(f.acf[64] / 256.0 - 128 * std::cos(2 * kPi * 10 * 64 / 256.0)) < 1e-2, "r(64) = %g", f.acf[64] / 256.0);
}

// The engine's FFTs take the patient plans of FftWisdomText.cpp: FFTW_WISDOM_ONLY makes a plan only
// from wisdom gathered with at least FFTW_PATIENT for exactly the problem RealFFT poses (sizes, arrays,
// out-of-place), and returns none otherwise — as it does without the imported wisdom.
TEST(realFftPlansComeFromThePatientWisdomForEveryEngineSize) {
    RealFFT first(64, false);  // imports the wisdom
    CHECK(importFftWisdom(), "FFTW did not accept kFftWisdom");
    for (std::size_t n = 64; n <= 65536; n *= 2) {
        RealFFT f(n, n <= 16384);
        fftwf_plan p = fftwf_plan_dft_r2c_1d(int(n), f.in, f.out, FFTW_PATIENT | FFTW_WISDOM_ONLY);
        CHECK(p != nullptr, "no patient wisdom for the %zu-point real→complex FFT", n);
        if (p) fftwf_destroy_plan(p);
        if (n > 16384) continue;
        fftwf_plan q = fftwf_plan_dft_c2r_1d(int(n), f.out, f.acf, FFTW_PATIENT | FFTW_WISDOM_ONLY);
        CHECK(q != nullptr, "no patient wisdom for the %zu-point complex→real FFT", n);
        if (q) fftwf_destroy_plan(q);
    }
}

// The patient plans compute the same transform: a 16384-point FFT of a tone with noise against a
// direct DFT in double precision at a few bins.
TEST(realFftWithThePatientPlansMatchesADirectTransform) {
    const std::size_t n = 16384;
    RealFFT f(n, false);
    std::vector<double> x(n);
    for (std::size_t i = 0; i < n; ++i) {
        x[i] = std::sin(2 * kPi * 110.3 * double(i) / double(n)) + 0.01 * std::sin(double(i) * double(i) * 1e-3);
        f.in[i] = float(x[i]);
    }
    fftwf_execute(f.forward);
    for (std::size_t k : {0, 1, 110, 111, 4000, 8192}) {
        double re = 0, im = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const double a = -2 * kPi * double((k * i) % n) / double(n);
            re += double(float(x[i])) * std::cos(a);
            im += double(float(x[i])) * std::sin(a);
        }
        const double error = std::hypot(f.out[k][0] - re, f.out[k][1] - im);
        CHECK(error < 1e-3 * std::sqrt(double(n)), "bin %zu: |FFT − DFT| = %g", k, error);
    }
}

TEST(realFftPaddingClearsOnlyWhatALongerFrameLeft) {
    RealFFT f(16, false);
    for (int n = 0; n < 12; ++n) f.in[n] = 1;
    f.padFrom(12);
    for (int n = 0; n < 8; ++n) f.in[n] = 2;
    f.padFrom(8);
    CHECK(f.in[7] == 2 && f.in[8] == 0 && f.in[11] == 0 && f.in[15] == 0, "in[8] = %g, in[11] = %g", f.in[8], f.in[11]);
}

TEST(windowCacheMatchesTheBlackmanHarrisDefinition) {
    WindowCache cache(5000);
    for (std::size_t L : {7u, 64u, 1001u, 4096u, 4999u}) {
        const float *w = cache.get(L);
        double worst = 0;
        for (std::size_t n = 0; n < L; ++n) worst = std::max(worst, std::abs(double(w[n]) - WindowCache::reference(n, L)));
        CHECK(worst < 2e-7, "L = %zu: largest difference %g", L, worst);
        CHECK(std::abs(w[(L - 1) / 2] - (L % 2 ? 1.0 : WindowCache::reference((L - 1) / 2, L))) < 1e-6,
              "L = %zu: centre %g", L, w[(L - 1) / 2]);
    }
}

TEST(windowCacheKeepsTheLastFourLengthsAndRefillsTheLeastRecent) {
    WindowCache cache(100);
    const float *a = cache.get(50);
    cache.get(51);
    cache.get(52);
    cache.get(53);
    CHECK(cache.get(50) == a, "length 50 was recomputed elsewhere");
    cache.get(54);  // evicts 51, the least recently used
    CHECK(cache.get(50) == a, "length 50 evicted though used last but four");
    const float *b = cache.get(51);
    CHECK(std::abs(b[25] - WindowCache::reference(25, 51)) < 1e-6, "refilled length 51 wrong: %g", b[25]);
}

TEST(decimatorPassesSamplesThroughAtFactorOne) {
    Decimator d(1);
    Ring out(4);
    const float x[3] = {1, 2, 3};
    d.push(x, 3, out);
    CHECK(out.latest(3)[0] == 1 && out.latest(3)[2] == 3, "outputs %g … %g", out.latest(3)[0], out.latest(3)[2]);
}

namespace {
/// The decimator's steady output amplitude for a unit sine at f (input rate fs).
double gainAt(std::size_t factor, double fs, double f) {
    Decimator d(factor);
    Ring out(4096);
    std::vector<float> x = signals::sine(f, fs, 4096 * factor, 1.0);
    d.push(x.data(), x.size(), out);
    double power = 0;  // the RMS, not the largest sample: a few samples per period miss the crest
    const float *y = out.latest(2048);
    for (int n = 0; n < 2048; ++n) power += double(y[n]) * double(y[n]);
    return std::sqrt(2 * power / 2048);
}
double db(double g) { return 20 * std::log10(g); }
} // namespace

TEST(decimatorKeepsTheNotesAndStopsWhatWouldAlias) {
    // At 48 kHz (factor 2, decimated rate 24 kHz): flat where the partials that decide a period lie,
    // −6 dB at the cutoff, and what lies from 0.6 × the decimated rate up (it would fold onto
    // 0…9.6 kHz) is stopped. The 2-tap moving average used before passed 19.2 kHz at −14 dB.
    for (double f : {100.0, 1000.0, 4200.0, 6000.0})
        CHECK(std::abs(db(gainAt(2, 48000, f))) < 0.1, "%g Hz: %.2f dB", f, db(gainAt(2, 48000, f)));
    CHECK(std::abs(db(gainAt(2, 48000, 9600)) + 6) < 0.3, "cutoff: %.2f dB", db(gainAt(2, 48000, 9600)));
    for (double f : {14400.0, 16800.0, 19200.0, 22000.0})
        CHECK(db(gainAt(2, 48000, f)) < -75, "%g Hz: %.1f dB", f, db(gainAt(2, 48000, f)));
    // At 96 kHz (factor 4) likewise.
    CHECK(std::abs(db(gainAt(4, 96000, 4200))) < 0.1, "96 kHz, 4200 Hz: %.2f dB", db(gainAt(4, 96000, 4200)));
    CHECK(db(gainAt(4, 96000, 14400)) < -75, "96 kHz, 14.4 kHz: %.1f dB", db(gainAt(4, 96000, 14400)));
}

// Each output is the FIR over the T inputs it follows, whatever pieces the input came in: one
// sample at a time, pieces across the decimator's block, a piece longer than a block.
TEST(decimatorOutputsTheFilterOfItsInputWhateverThePieces) {
    for (std::size_t factor : {2, 3, 4}) {
        std::vector<float> x(3 * kDecimatorBlock + 37);
        for (std::size_t i = 0; i < x.size(); ++i) x[i] = float(std::sin(0.37 * double(i)) + 0.25 * std::cos(1.9 * double(i)));
        Decimator reference(factor);
        const std::vector<float> &h = reference.taps();
        const std::size_t T = h.size(), outputs = x.size() / factor;
        std::vector<double> expected(outputs);
        for (std::size_t o = 0; o < outputs; ++o) {
            const std::size_t last = (o + 1) * factor - 1;  // the input that completes output o
            double acc = 0;
            for (std::size_t j = 0; j < T; ++j) {
                const long at = long(last) - long(T - 1) + long(j);
                acc += at >= 0 ? double(h[j]) * double(x[std::size_t(at)]) : 0.0;
            }
            expected[o] = acc;
        }
        for (std::size_t piece : {std::size_t(1), std::size_t(7), kDecimatorBlock - 1, x.size()}) {
            Decimator d(factor);
            Ring out(outputs);
            for (std::size_t at = 0; at < x.size(); at += piece) d.push(x.data() + at, std::min(piece, x.size() - at), out);
            const float *y = out.latest(outputs);
            double worst = 0;
            for (std::size_t o = 0; o < outputs; ++o) worst = std::max(worst, std::abs(double(y[o]) - expected[o]));
            CHECK(worst < 1e-6, "factor %zu, pieces of %zu: off by %g", factor, piece, worst);
        }
    }
}

TEST(decimatorTapsAreSymmetricAndSumToOne) {
    for (std::size_t factor : {2u, 4u, 9u}) {
        const Decimator decimator(factor);
        const std::vector<float> &h = decimator.taps();
        double sum = 0, asymmetry = 0;
        for (std::size_t n = 0; n < h.size(); ++n) {
            sum += h[n];
            asymmetry = std::max(asymmetry, double(std::abs(h[n] - h[h.size() - 1 - n])));
        }
        CHECK(h.size() == kTapsPerFactor * factor - 1 && std::abs(sum - 1) < 1e-6 && asymmetry == 0,
              "factor %zu: %zu taps, sum %g, asymmetry %g", factor, h.size(), sum, asymmetry);
    }
}
