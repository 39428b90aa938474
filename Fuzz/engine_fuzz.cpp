// engine_fuzz.cpp — libFuzzer target over the pitch engine's C API (CTuner/include/ctuner.h).
//
// The input bytes are a small program: first a configuration (sample rate, a byte once used for A4 —
// still read, so the seed corpus keeps its meaning —, frequency range, gate, hop — each either drawn from its valid range or taken as raw IEEE bits, NaN and ±Inf included), then
// operations until the bytes run out: blocks of raw float bits, of special values (NaN, ±Inf, ±FLT_MAX,
// denormals), of a synthesised sine with any amplitude, runs of 1-sample blocks, empty and NULL blocks,
// reset (ops 5 and 6, once set_a4, now feed a short run of 1-sample blocks). Every result is checked
// by ResultChecker (finite fields, has_pitch and onset 0/1, one result per hop), and create must refuse
// exactly the configurations the header documents as out of range.
//
// Build and run: `make fuzz` (see Fuzz/README.md).
#include "FuzzInput.hpp"
#include "ResultChecks.hpp"
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
/// Samples one input may push through the engine: keeps one execution in the millisecond range.
constexpr std::size_t kSampleBudget = 1 << 15;

const float kSpecials[] = {
    std::numeric_limits<float>::quiet_NaN(),
    -std::numeric_limits<float>::quiet_NaN(),
    std::numeric_limits<float>::infinity(),
    -std::numeric_limits<float>::infinity(),
    FLT_MAX,
    -FLT_MAX,
    std::numeric_limits<float>::denorm_min(),
    -std::numeric_limits<float>::denorm_min(),
    FLT_MIN,
    0.0f,
    -0.0f,
    1.0f,
    -1.0f,
    4.0f,
    1e-20f,
    1e20f,
};

void onResult(ct_result r, void *context) { static_cast<fuzz::ResultChecker *>(context)->check(r); }

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    FuzzInput in(data, size);
    static std::vector<float> block(kMaxBlock);

    ct_config config;
    ct_config_default(&config, 48000);
    config.sample_rate = field(in, 48000, 8000, 192000);
    (void)field(in, 440, 400, 480);  // once A4: the engine no longer knows a reference pitch
    config.min_frequency = field(in, 29, 20, 200);
    config.max_frequency = field(in, 4200, 500, 20000);
    config.gate_db = field(in, -60, -130, 10);
    config.hop_seconds = field(in, 0.01, 0.001, 0.1);
    const bool documentedRangeOnly = in.byte() & 1;
    if (documentedRangeOnly) {  // only the rate varies: the range ctuner.h documents
        double rate = config.sample_rate;
        ct_config_default(&config, rate);
    }

    fuzz::ResultChecker checker;
    char error[128] = {0};
    ct_engine *engine = ct_engine_create(&config, onResult, &checker, error, sizeof error);
    const bool rateOk = config.sample_rate >= 8000 && config.sample_rate <= 192000;
    if (!engine) {
        if (error[0] == 0) {
            std::fprintf(stderr, "create refused a configuration without saying why\n");
            std::abort();
        }
        if (documentedRangeOnly && rateOk) {
            std::fprintf(stderr, "create refused rate %.17g: %s\n", config.sample_rate, error);
            std::abort();
        }
        return 0;
    }
    if (!rateOk) {
        std::fprintf(stderr, "create accepted rate %.17g\n", config.sample_rate);
        std::abort();
    }
    checker.sampleRate = config.sample_rate;
    checker.hop = ct_engine_hop_size(engine);
    if (checker.hop == 0 || ct_engine_window_size(engine) == 0) {
        std::fprintf(stderr, "engine reports hop %zu, window %zu\n", checker.hop, ct_engine_window_size(engine));
        std::abort();
    }

    std::size_t budget = kSampleBudget;
    double phase = 0;
    while (!in.empty() && budget > 0) {
        const std::uint8_t op = in.byte();
        switch (op % 8) {
        case 0: {  // raw float bits
            std::size_t n = std::min<std::size_t>({in.u16() % (kMaxBlock + 1), in.remaining() / 4, budget});
            for (std::size_t i = 0; i < n; ++i) block[i] = in.f32();
            ct_engine_process(engine, block.data(), n);
            budget -= n;
            break;
        }
        case 1: {  // a sine (the engine's pitch path) at any amplitude, phase carried across blocks
            double frequency = in.inRange(15, 6000);
            float amplitude = kSpecials[in.byte() % (sizeof kSpecials / sizeof *kSpecials)];
            if (in.byte() & 1) amplitude = float(in.inRange(0, 1.5));
            std::size_t n = std::min<std::size_t>(in.u16() % (kMaxBlock + 1), budget);
            double step = 2 * M_PI * frequency / config.sample_rate;
            for (std::size_t i = 0; i < n; ++i) {
                block[i] = amplitude * float(std::sin(phase));
                phase = std::fmod(phase + step, 2 * M_PI);
            }
            ct_engine_process(engine, block.data(), n);
            budget -= n;
            break;
        }
        case 2: {  // special values
            std::size_t n = std::min<std::size_t>(in.u16() % (kMaxBlock + 1), budget);
            for (std::size_t i = 0; i < n; ++i) {
                std::uint8_t pick = in.byte();
                block[i] = kSpecials[pick % (sizeof kSpecials / sizeof *kSpecials)];
            }
            ct_engine_process(engine, block.data(), n);
            budget -= n;
            break;
        }
        case 3: {  // 1-sample blocks
            std::size_t n = std::min<std::size_t>(in.byte(), budget);
            for (std::size_t i = 0; i < n; ++i) {
                float x = in.f32();
                ct_engine_process(engine, &x, 1);
            }
            budget -= n;
            break;
        }
        case 4:  // empty blocks; NULL is ignored whatever the count
            ct_engine_process(engine, block.data(), 0);
            ct_engine_process(engine, nullptr, in.u16());
            break;
        case 5:
        case 6: {  // once set_a4 (its 8 bytes still read): a few 1-sample blocks of that double
            const float x = float(in.f64());
            for (int i = 0; i < 8 && budget > 0; ++i, --budget) ct_engine_process(engine, &x, 1);
            break;
        }
        default:
            ct_engine_reset(engine);
            checker.results = 0;
            break;
        }
    }
    ct_engine_destroy(engine);
    return 0;
}
