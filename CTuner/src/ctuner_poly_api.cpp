// ctuner_poly_api.cpp — the extern "C" face (include/ctuner.h, "Polyphonic strums") of
// ctuner::PolyAnalyser.
#include "PolyAnalyser.hpp"

#include <cstdio>
#include <exception>

struct ct_poly {
    ctuner::PolyAnalyser analyser;
    ct_poly(const ct_config &c, const double *targets, size_t count) : analyser(c, targets, count) {}
};

extern "C" {

ct_poly *ct_poly_create(const ct_config *config, const double *targets, size_t count, ct_poly_callback callback,
                        void *context, char *error, size_t error_capacity) {
    auto fail = [&](const char *why) -> ct_poly * {
        if (error && error_capacity > 0) std::snprintf(error, error_capacity, "%s", why);
        return nullptr;
    };
    if (!config) return fail("no configuration");
    try {
        auto *made = new ct_poly(*config, targets, count);
        if (callback) {
            made->analyser.onHop = [callback, context](double time, const ct_poly_string *strings, size_t n) {
                const ct_poly_result result{time, n, strings};
                callback(&result, context);
            };
        }
        return made;
    } catch (const std::exception &e) {
        return fail(e.what());
    }
}

void ct_poly_destroy(ct_poly *poly) { delete poly; }

void ct_poly_process(ct_poly *poly, const float *samples, size_t count) {
    if (poly && samples) poly->analyser.process(samples, count);
}

void ct_poly_reset(ct_poly *poly) {
    if (poly) poly->analyser.reset();
}

size_t ct_poly_hop_size(const ct_poly *poly) { return poly ? poly->analyser.hopSize() : 0; }

} // extern "C"
