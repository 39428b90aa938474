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

extern "C" {

void ct_config_default(ct_config *config, double sample_rate) {
    if (!config) return;
    config->sample_rate = sample_rate;
    config->min_frequency = 29.0;
    config->max_frequency = 4200.0;
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
