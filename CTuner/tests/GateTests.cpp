// GateTests.cpp — the noise gate (ct_config.gate_db, −60 dBFS by default: ct_config_default), bracketed
// from both sides for the single-note engine (Tracker) and the strum analyser (PolyAnalyser): a steady
// note 3 dB over the gate is read, 3 dB under it is not, at the default gate and at a gate set to −40.
// A gate moved 5 dB looser reads the note under it; one moved 5 or 10 dB stricter loses the note over it.
#include "Check.hpp"
#include "PolyHops.hpp"
#include "Signals.hpp"
#include "Strums.hpp"

#include "../src/PitchEngine.hpp"

#include <cmath>
#include <vector>

namespace {
constexpr double kFs = 48000;

/// A sine of `hz` whose mean power is `levelDb` dBFS (the engine's level: 10·log10 of the mean square).
std::vector<float> sineAt(double hz, double levelDb, double seconds) {
    return signals::sine(hz, kFs, std::size_t(seconds * kFs), std::sqrt(2 * std::pow(10.0, levelDb / 10)));
}

/// The share of the single-note engine's hops after 0.2 s that have a pitch within 5 ¢ of `hz`.
double pitchedShare(const std::vector<float> &x, double hz, double gateDb) {
    ct_config c;
    ct_config_default(&c, kFs);
    c.gate_db = gateDb;
    ctuner::PitchEngine engine(c);
    std::size_t hops = 0, pitched = 0;
    engine.onResultReady = [&](ct_result r) {
        if (r.time < 0.2) return;
        ++hops;
        if (r.has_pitch && std::abs(signals::cents(r.frequency, hz)) < 5) ++pitched;
    };
    engine.process(x.data(), x.size());
    return hops ? double(pitched) / double(hops) : 0;
}
} // namespace

TEST(theDefaultGateIsSixtyDbUnderFullScale) {
    ct_config c;
    ct_config_default(&c, kFs);
    CHECK(c.gate_db == -60.0, "default gate %g dBFS", c.gate_db);
}

TEST(aNoteThreeDbOverTheGateIsReadAndThreeDbUnderItIsNot) {
    ct_config c;
    ct_config_default(&c, kFs);
    for (double gate : {c.gate_db, -40.0}) {
        const double over = pitchedShare(sineAt(220, gate + 3, 1.0), 220, gate);
        const double under = pitchedShare(sineAt(220, gate - 3, 1.0), 220, gate);
        CHECK(over > 0.95, "gate %g dBFS: a note 3 dB over it read on %.0f %% of the hops", gate, 100 * over);
        CHECK(under == 0, "gate %g dBFS: a note 3 dB under it read on %.0f %% of the hops", gate, 100 * under);
    }
}

TEST(aStrumThreeDbOverTheGateIsHeardAndThreeDbUnderItIsNot) {
    // One string (A2) of the analyser's tuning sounding alone and steady (a plucked string would decay
    // through the gate), its level the analyser's: the mean square over its gate window.
    using namespace polyhops;
    const std::vector<double> targets = strums::standardTuning();
    for (double gate : {-60.0, -40.0}) {
        for (double offset : {3.0, -3.0}) {
            // Partials 1/k, k = 1…5, scaled so that their summed mean square is the level wanted.
            std::vector<double> amplitudes;
            double power = 0;
            for (int k = 1; k <= 5; ++k) {
                amplitudes.push_back(1.0 / k);
                power += 0.5 / (k * k);
            }
            const double scale = std::sqrt(std::pow(10.0, (gate + offset) / 10) / power);
            for (double &v : amplitudes) v *= scale;
            const std::vector<float> x =
                signals::partials(targets[1], amplitudes, polyhops::kFs, std::size_t(1.5 * polyhops::kFs));
            const double share = heardShare(analyse(targets, x, gate), 1, 0.4);
            if (offset > 0)
                CHECK(share > 0.95, "gate %g dBFS: A2 at %+g dB heard on %.0f %% of the hops", gate, offset, 100 * share);
            else
                CHECK(share == 0, "gate %g dBFS: A2 at %+g dB heard on %.0f %% of the hops", gate, offset, 100 * share);
        }
    }
}
