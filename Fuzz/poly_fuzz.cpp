// poly_fuzz.cpp — libFuzzer target over the strum analyser's C API (ct_poly_*, CTuner/include/ctuner.h).
//
// The input bytes are a small program: a configuration (as in engine_fuzz.cpp: each field its default,
// a value from its range, or raw IEEE bits), a string count (0…CT_POLY_MAX_STRINGS + 1) and one target
// per string (a guitar's, one from the range, or raw bits), then operations until the bytes run out:
// blocks of raw float bits, of special values (NaN, ±Inf, ±FLT_MAX, denormals), a synthesised strum of
// the targets (each string detuned, with harmonics) at any amplitude, runs of 1-sample blocks, empty and
// NULL blocks, reset. Every hop is checked by PolyChecker below, and create must refuse exactly the
// configurations ctuner.h documents as refused (and say why).
//
// Build and run: `make fuzz` (see Fuzz/README.md).
#include "FuzzInput.hpp"
#include "ctuner.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <vector>

namespace {

using fuzz::FuzzInput;
using fuzz::field;

constexpr std::size_t kMaxBlock = 8192;
/// Samples one input may push through the analyser: its 0.25 s frames cost two FFTs per hop, so this
/// keeps one execution in the tens of milliseconds under the sanitizers.
constexpr std::size_t kSampleBudget = 1 << 14;
/// ctuner.h: each string is searched within ±130 cents of its target; a reading outside that (plus a
/// rounding margin) is a broken promise.
constexpr double kSearchCents = 130.0 + 1e-6;
/// ctuner.h: no two targets closer than 260 cents.
constexpr double kMinSpacingCents = 260.0;
/// A string's level is its own partials' RMS; the input is clamped to ±1e6 (PolyAnalyser), 120 dBFS.
constexpr double kMaxLevelDb = 125.0;

const double kGuitar[] = {82.4069, 110.0, 146.832, 195.998, 246.942, 329.628};

const float kSpecials[] = {
    std::numeric_limits<float>::quiet_NaN(), -std::numeric_limits<float>::quiet_NaN(),
    std::numeric_limits<float>::infinity(),  -std::numeric_limits<float>::infinity(),
    FLT_MAX,                                 -FLT_MAX,
    std::numeric_limits<float>::denorm_min(), -std::numeric_limits<float>::denorm_min(),
    FLT_MIN,                                 0.0f,
    -0.0f,                                   1.0f,
    -1.0f,                                   4.0f,
    1e-20f,                                  1e20f,
};

/// What every hop must satisfy, whatever the input.
struct PolyChecker {
    double sampleRate = 0;
    std::size_t hop = 0, count = 0;
    const double *targets = nullptr;
    unsigned long long hops = 0;  // since the last reset

    [[noreturn]] static void fail(const char *what, double time, std::size_t i, const ct_poly_string &s) {
        std::fprintf(stderr,
                     "poly invariant broken: %s\n  time=%.17g string=%zu heard=%d frequency=%.17g "
                     "inharmonicity=%.17g level_db=%.17g clarity=%.17g\n",
                     what, time, i + 1, s.heard, s.frequency, s.inharmonicity, s.level_db, s.clarity);
        std::abort();
    }

    void check(const ct_poly_result &r) {
        ++hops;
        const double expected = double(hops * hop) / sampleRate;
        const ct_poly_string none{};
        if (!std::isfinite(r.time) || std::fabs(r.time - expected) > 1e-9 * (1 + expected))
            fail("time is not (hops × hop) / sample rate", r.time, 0, none);
        if (r.count != count || !r.strings) fail("a hop does not carry one reading per string", r.time, 0, none);
        for (std::size_t i = 0; i < count; ++i) {
            const ct_poly_string &s = r.strings[i];
            if (s.heard == 0) {
                if (s.frequency != 0 || s.inharmonicity != 0 || s.level_db != -120.0 || s.clarity != 0)
                    fail("a string not heard carries a reading", r.time, i, s);
                continue;
            }
            if (s.heard != 1) fail("heard is neither 0 nor 1", r.time, i, s);
            if (!std::isfinite(s.frequency) || s.frequency <= 0 || s.frequency >= sampleRate / 2)
                fail("frequency outside (0, Nyquist)", r.time, i, s);
            if (std::fabs(1200.0 * std::log2(s.frequency / targets[i])) > kSearchCents)
                fail("frequency outside ±130 cents of the string's target", r.time, i, s);
            if (!std::isfinite(s.inharmonicity) || s.inharmonicity < 0 || s.inharmonicity > 1e-3)
                fail("inharmonicity not a string's (0…1e-3)", r.time, i, s);
            if (!std::isfinite(s.level_db) || s.level_db < -120.0 || s.level_db > kMaxLevelDb)
                fail("level_db outside −120…+125 dBFS", r.time, i, s);
            if (!std::isfinite(s.clarity) || s.clarity < 0 || s.clarity > 1.0 + 1e-12)
                fail("clarity outside 0…1", r.time, i, s);
        }
    }
};

void onHop(const ct_poly_result *r, void *context) { static_cast<PolyChecker *>(context)->check(*r); }

/// Whether ctuner.h says ct_poly_create must accept this (the configuration's own checks aside).
bool stringsAcceptable(const ct_config &c, const double *targets, std::size_t count) {
    if (count == 0 || count > CT_POLY_MAX_STRINGS) return false;
    for (std::size_t i = 0; i < count; ++i) {
        if (!(std::isfinite(targets[i]) && targets[i] >= c.min_frequency && targets[i] <= c.max_frequency)) return false;
        for (std::size_t j = 0; j < i; ++j)
            if (std::fabs(1200.0 * std::log2(targets[i] / targets[j])) < kMinSpacingCents) return false;
    }
    return true;
}

bool configAcceptable(const ct_config &c) {
    return c.sample_rate >= 8000 && c.sample_rate <= 192000 && c.min_frequency >= 20 &&
           c.max_frequency > c.min_frequency * 2 && c.hop_seconds >= 0.001 && c.hop_seconds <= 0.1 &&
           std::isfinite(c.gate_db);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    FuzzInput in(data, size);
    static std::vector<float> block(kMaxBlock);

    ct_config config;
    ct_config_default(&config, 48000);
    config.sample_rate = field(in, 48000, 8000, 192000);
    config.min_frequency = field(in, 26.5, 20, 200);
    config.max_frequency = field(in, 4200, 500, 20000);
    config.gate_db = field(in, -60, -130, 10);
    config.hop_seconds = field(in, 0.01, 0.001, 0.1);
    if (in.byte() & 1) {  // the documented defaults for the rate
        const double rate = config.sample_rate;
        ct_config_default(&config, rate);
    }
    const std::size_t count = in.byte() % (CT_POLY_MAX_STRINGS + 2);
    double targets[CT_POLY_MAX_STRINGS + 1];
    for (std::size_t i = 0; i < count; ++i) {
        switch (in.byte() % 4) {
        case 0:
        case 1: targets[i] = kGuitar[i % 6] * (i < 6 ? 1.0 : 2.0); break;
        case 2: targets[i] = in.inRange(15, 6000); break;
        default: targets[i] = in.f64(); break;
        }
    }

    PolyChecker checker;
    checker.targets = targets;
    checker.count = count;
    char error[160] = {0};
    ct_poly *poly = ct_poly_create(&config, targets, count, onHop, &checker, error, sizeof error);
    const bool acceptable = configAcceptable(config) && stringsAcceptable(config, targets, count);
    if (!poly) {
        if (error[0] == 0) {
            std::fprintf(stderr, "ct_poly_create refused without saying why\n");
            std::abort();
        }
        if (acceptable) {
            std::fprintf(stderr, "ct_poly_create refused a documented configuration (rate %.17g, %zu strings): %s\n",
                         config.sample_rate, count, error);
            std::abort();
        }
        return 0;
    }
    if (!acceptable) {
        std::fprintf(stderr, "ct_poly_create accepted an undocumented configuration (rate %.17g, %zu strings)\n",
                     config.sample_rate, count);
        std::abort();
    }
    checker.sampleRate = config.sample_rate;
    checker.hop = ct_poly_hop_size(poly);
    if (checker.hop == 0) {
        std::fprintf(stderr, "ct_poly_hop_size is 0\n");
        std::abort();
    }

    std::size_t budget = kSampleBudget;
    double phases[CT_POLY_MAX_STRINGS] = {0};
    while (!in.empty() && budget > 0) {
        const std::uint8_t op = in.byte();
        switch (op % 7) {
        case 0: {  // raw float bits
            const std::size_t n = std::min<std::size_t>({in.u16() % (kMaxBlock + 1), in.remaining() / 4, budget});
            for (std::size_t i = 0; i < n; ++i) block[i] = in.f32();
            ct_poly_process(poly, block.data(), n);
            budget -= n;
            break;
        }
        case 1: {  // a strum: every string detuned by up to ±150 ¢, three partials, any amplitude
            float amplitude = kSpecials[in.byte() % (sizeof kSpecials / sizeof *kSpecials)];
            if (in.byte() & 1) amplitude = float(in.inRange(0, 1.5));
            double steps[CT_POLY_MAX_STRINGS];
            for (std::size_t s = 0; s < count; ++s)
                steps[s] = 2 * M_PI * targets[s] * std::exp2(in.inRange(-150, 150) / 1200.0) / config.sample_rate;
            const std::size_t n = std::min<std::size_t>(in.u16() % (kMaxBlock + 1), budget);
            for (std::size_t i = 0; i < n; ++i) {
                double x = 0;
                for (std::size_t s = 0; s < count; ++s) {
                    x += std::sin(phases[s]) + 0.5 * std::sin(2 * phases[s]) + 0.3 * std::sin(3 * phases[s]);
                    phases[s] = std::fmod(phases[s] + steps[s], 2 * M_PI);
                }
                block[i] = amplitude * float(x / double(count));
            }
            ct_poly_process(poly, block.data(), n);
            budget -= n;
            break;
        }
        case 2: {  // special values
            const std::size_t n = std::min<std::size_t>(in.u16() % (kMaxBlock + 1), budget);
            for (std::size_t i = 0; i < n; ++i) block[i] = kSpecials[in.byte() % (sizeof kSpecials / sizeof *kSpecials)];
            ct_poly_process(poly, block.data(), n);
            budget -= n;
            break;
        }
        case 3: {  // 1-sample blocks
            const std::size_t n = std::min<std::size_t>(in.byte(), budget);
            for (std::size_t i = 0; i < n; ++i) {
                const float x = in.f32();
                ct_poly_process(poly, &x, 1);
            }
            budget -= n;
            break;
        }
        case 4:  // empty blocks; NULL is ignored whatever the count
            ct_poly_process(poly, block.data(), 0);
            ct_poly_process(poly, nullptr, in.u16());
            break;
        case 5: {  // silence (below any gate but a raw one), so a strum can decay into it
            const std::size_t n = std::min<std::size_t>(in.u16() % (kMaxBlock + 1), budget);
            std::fill(block.begin(), block.begin() + long(n), 0.0f);
            ct_poly_process(poly, block.data(), n);
            budget -= n;
            break;
        }
        default:
            ct_poly_reset(poly);
            checker.hops = 0;
            break;
        }
    }
    ct_poly_destroy(poly);
    return 0;
}
