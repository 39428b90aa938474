// ResultChecks.hpp — what every ct_result must satisfy, whatever the input: the invariants the fuzz
// targets check after each callback. A violation prints the result and aborts, so libFuzzer keeps the
// input that caused it.
#pragma once

#include "ctuner.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace fuzz {

/// Counts the results of one engine and checks each of them.
struct ResultChecker {
    double sampleRate = 0;
    std::size_t hop = 0;
    unsigned long long results = 0;  // since the last reset

    [[noreturn]] static void fail(const char *what, const ct_result &r) {
        std::fprintf(stderr,
                     "result invariant broken: %s\n  time=%.17g has_pitch=%d frequency=%.17g "
                     "confidence=%.17g level_db=%.17g onset=%d\n",
                     what, r.time, r.has_pitch, r.frequency, r.confidence, r.level_db, r.onset);
        std::abort();
    }

    void check(const ct_result &r) {
        ++results;
        // Results come once per hop: result n (1-based) ends at n·hop samples.
        double expected = double(results * hop) / sampleRate;
        if (!std::isfinite(r.time) || std::fabs(r.time - expected) > 1e-9 * (1 + expected))
            fail("time is not (results × hop) / sample rate", r);
        if (!std::isfinite(r.level_db) || r.level_db < -120.0 || r.level_db > 12.05)
            fail("level_db outside −120…+12 dBFS (input is clamped to ±4)", r);
        if (!std::isfinite(r.confidence) || r.confidence < 0.0 || r.confidence > 1.0)
            fail("confidence outside 0…1", r);
        if (r.onset != 0 && r.onset != 1) fail("onset is neither 0 nor 1", r);
        if (r.has_pitch == 0) {
            if (r.frequency != 0) fail("a result without pitch carries a frequency", r);
            return;
        }
        if (r.has_pitch != 1) fail("has_pitch is neither 0 nor 1", r);
        if (!std::isfinite(r.frequency) || r.frequency <= 0 || r.frequency >= sampleRate / 2)
            fail("frequency outside (0, Nyquist)", r);
    }
};

} // namespace fuzz
