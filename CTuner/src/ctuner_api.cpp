// ctuner_api.cpp — the extern "C" face (include/ctuner.h) of ctuner::PitchEngine.
#include "PitchEngine.hpp"

#include <cstdio>
#include <cstring>
#include <exception>
#include <new>

struct ct_engine {
    ctuner::PitchEngine engine;
    explicit ct_engine(const ct_config &c) : engine(c) {}
};

namespace {
/// The default lowest fundamental: under a piano's A0 (27.5 Hz), the lowest note a tuner is asked for,
/// by 64 cents, so that A0 tuned to a stretch curve (about −17 ¢, 27.2 Hz) or played a quarter tone
/// flat (26.7 Hz) is inside the range, not at its edge. It is the highest such floor that keeps the
/// long NSDF's FFT at 4096 points: W_d + max_lag + 1 = ceil(3.5·24000/26.5) + ceil(24000/26.5) + 3 =
/// 4079 at a decimated rate of 24 kHz (48 and 96 kHz), the highest the decimator gives. At 26 Hz it
/// was 4158, an FFT of 8192, and the benchmark's 120 s sequence at 48 kHz cost 28 % more CPU per
/// audio second (4.61 → 5.91 ms/s, medians of 7 runs). The long window grows from 121 ms (the former
/// 29 Hz) to 132 ms, the longest refinement frame from 207 to 226 ms.
constexpr double kDefaultMinFrequency = 26.5;
/// The default highest fundamental: over C8 (4186 Hz), a piano's top key.
constexpr double kDefaultMaxFrequency = 4200.0;
} // namespace

extern "C" {

void ct_config_default(ct_config *config, double sample_rate) {
    if (!config) return;
    config->sample_rate = sample_rate;
    config->min_frequency = kDefaultMinFrequency;
    config->max_frequency = kDefaultMaxFrequency;
    config->gate_db = -60.0;
    config->hop_seconds = 0.01;
}

ct_engine *ct_engine_create(const ct_config *config, ct_result_callback callback, void *context,
                            char *error, size_t error_capacity) {
    auto fail = [&](const char *why) -> ct_engine * {
        if (error && error_capacity > 0) std::snprintf(error, error_capacity, "%s", why);
        return nullptr;
    };
    if (!config) return fail("no configuration");
    try {
        auto *made = new ct_engine(*config);
        if (callback) {
            made->engine.onResultReady = [callback, context](ct_result r) { callback(r, context); };
        }
        return made;
    } catch (const std::exception &e) {
        return fail(e.what());
    }
}

void ct_engine_destroy(ct_engine *engine) { delete engine; }

void ct_engine_process(ct_engine *engine, const float *samples, size_t count) {
    if (engine && samples) engine->engine.process(samples, count);
}

void ct_engine_reset(ct_engine *engine) {
    if (engine) engine->engine.reset();
}

size_t ct_engine_hop_size(const ct_engine *engine) { return engine ? engine->engine.hopSize() : 0; }

size_t ct_engine_window_size(const ct_engine *engine) { return engine ? engine->engine.windowSize() : 0; }

} // extern "C"
