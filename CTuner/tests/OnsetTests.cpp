// OnsetTests.cpp — the engine's onset: the level rule (LevelRise) with each threshold bracketed from
// both sides on hand-made levels, the periodicity break's attack threshold, and a re-pluck at the same
// level that only the break can hear.
#include "Check.hpp"
#include "Signals.hpp"

#include "../src/LevelRise.hpp"
#include "../src/OnsetGuard.hpp"

#include <functional>

using namespace ctuner;

namespace {
/// The times LevelRise calls attacks in `level(t)`, given every 10 ms for `seconds`, after the input's
/// first result (which is the attack of whatever sounds when the input starts: see the tests of the
/// start below). `first`, when given, is set to whether the first result was an attack.
std::vector<double> attacks(double seconds, const std::function<double(double)> &level, bool *first = nullptr) {
    LevelRise rise(0.01);
    std::vector<double> found;
    for (int i = 0; i < int(std::lround(seconds * 100)); ++i) {
        const double t = double(i) * 0.01;
        const bool attack = rise.process(t, level(t));
        if (i == 0 && first) *first = attack;
        if (attack && i > 0) found.push_back(t);
    }
    return found;
}
} // namespace

TEST(levelRiseNoteStartingWithTheInputIsOneOnsetAtItsFirstResult) {
    // A note sounding from the first sample: its level climbs for 50 ms while the level window fills
    // (it held the silence before the input), then holds (or decays). One attack, at the first result;
    // none 0.15 s later, where the climb used to be compared with the note's own first results.
    for (double decay : {0.0, 12.0}) {
        bool first = false;
        const auto later = attacks(2, [decay](double t) { return -20.0 - 30.0 * std::max(0.0, 0.05 - t) / 0.05 - decay * t; }, &first);
        CHECK(first, "decay %g: the first result was not an attack", decay);
        CHECK(later.empty(), "decay %g: %zu later attacks, first at %g", decay, later.size(), later.empty() ? -1.0 : later[0]);
    }
    // A first result that caught only the input's first samples (−100 dBFS), then the note: still one.
    bool first = false;
    const auto later = attacks(2, [](double t) { return t < 0.005 ? -100.0 : -25.0; }, &first);
    CHECK(first && later.empty(), "first %d, %zu later attacks", int(first), later.size());
}

TEST(levelRiseInputStartingInSilenceHasItsFirstAttackAtTheFirstSound) {
    // Digital silence (−120 dBFS, the floor) for 0.05 or 0.3 s, then a level 5.5 or 6.5 dB over it:
    // the silence is no attack; the sound is one only from 6 dB over the floor (kRiseDb over kInputPastDb).
    for (double silence : {0.05, 0.3}) {
        for (double over : {5.5, 6.5}) {
            bool first = true;
            const auto later = attacks(1, [=](double t) { return t < silence - 1e-9 ? -120.0 : -120.0 + over; }, &first);
            CHECK(!first, "silence %g: the silence was an attack", silence);
            const bool expected = over > 6.0;
            CHECK(later.size() == (expected ? 1u : 0u) && (!expected || std::abs(later[0] - silence) < 1e-9),
                  "silence %g, %g dB over: %zu attacks", silence, over, later.size());
        }
    }
}

TEST(levelRiseSecondPluckAfterANoteStartingWithTheInputIsAnAttack) {
    // −20 dB from the start, then +6.5 dB at 0.3 s is an attack; +5.5 dB is none.
    CHECK(attacks(1, [](double t) { return t < 0.3 - 1e-9 ? -20.0 : -13.5; }).size() == 1, "+6.5 dB at 0.3 s was not an attack");
    CHECK(attacks(1, [](double t) { return t < 0.3 - 1e-9 ? -20.0 : -14.5; }).empty(), "+5.5 dB at 0.3 s was an attack");
}

TEST(levelRiseOfSixDecibelsIsAnAttack) {
    CHECK(attacks(2, [](double t) { return t < 1 ? -30.0 : -24.5; }).empty(), "5.5 dB was an attack");
    CHECK(attacks(2, [](double t) { return t < 1 ? -30.0 : -23.5; }).size() == 1, "6.5 dB was not one attack");
}

TEST(levelRiseDipNarrowerThanTheLookbackIsNoAttack) {
    // −20 dB, nothing for w seconds (−80 dB), −20 dB again: the same note for w = 0.31 s, a new one
    // for w = 0.39 s (kLookbackSeconds − kRiseSeconds = 0.35 s).
    auto dip = [](double w) { return attacks(3, [w](double t) { return t >= 1 && t < 1 + w - 1e-9 ? -80.0 : -20.0; }); };
    CHECK(dip(0.31).empty(), "a 0.31 s dip was an attack");
    CHECK(dip(0.39).size() == 1, "a 0.39 s dip gave %zu attacks", dip(0.39).size());
}

TEST(levelRiseJumpOfEightDecibelsToTwoAboveTheLevelBeforeIsAnAttack) {
    // −30 dB; a 50 ms dip of x dB; back at −30 + o dB.
    auto jump = [](double x, double o) {
        return attacks(2, [x, o](double t) { return t < 1 ? -30.0 : t < 1.05 - 1e-9 ? -30.0 - x : -30.0 + o; });
    };
    CHECK(jump(4.5, 3).empty(), "a 7.5 dB jump was an attack");
    CHECK(jump(5.5, 3).size() == 1, "an 8.5 dB jump was not");
    CHECK(jump(10, 1.5).empty(), "1.5 dB above the level before was an attack");
    CHECK(jump(10, 2.5).size() == 1, "2.5 dB above the level before was not");
}

TEST(levelRiseJumpCountsFromTheQuietestOfTheLastTenthOfASecond) {
    // −30 dB; 50 ms at −40; −30 for g seconds; then −27: a jump from the dip only if g < 0.1 s.
    auto after = [](double g) {
        return attacks(2, [g](double t) { return t < 1 ? -30.0 : t < 1.05 - 1e-9 ? -40.0 : t < 1.05 + g - 1e-9 ? -30.0 : -27.0; });
    };
    CHECK(after(0.07).size() == 1, "a jump 0.07 s after the dip was not an attack");
    CHECK(after(0.13).empty(), "a jump 0.13 s after the dip was an attack");
}

TEST(levelRiseIsOneAttackUntilTheLevelStopsRisingForRiseSeconds) {
    // +7 dB every 0.12 s, six times: one attack. Two steps of +10 dB 0.2 s apart: two.
    std::vector<double> staircase = attacks(3, [](double t) {
        return t < 1 ? -60.0 : -60.0 + 7.0 * std::min(6.0, std::floor((t - 1) / 0.12 + 1e-9) + 1);
    });
    CHECK(staircase.size() == 1 && std::abs(staircase[0] - 1.0) < 1e-9, "%zu attacks", staircase.size());
    std::vector<double> twoSteps = attacks(3, [](double t) { return t < 1 ? -50.0 : t < 1.2 - 1e-9 ? -40.0 : -30.0; });
    CHECK(twoSteps.size() == 2, "%zu attacks", twoSteps.size());
}

TEST(levelRiseTakesAnAttackHeardElsewhereAsTheStartOfItsRise) {
    // −30 dB, an attack heard by the break at 1.0 s while the level is still −30, then +10 dB at
    // 1.03 s: one attack (the break's). Without the break, the rise is the attack.
    for (bool heard : {true, false}) {
        LevelRise rise(0.01);
        std::vector<double> found;
        for (int i = 0; i < 200; ++i) {
            const double t = i * 0.01;
            // (the first result is the attack of the note sounding when the input starts: not counted)
            if (rise.process(t, t < 1.03 - 1e-9 ? -30.0 : -20.0, heard && i == 100) && i > 0) found.push_back(t);
        }
        const double expected = heard ? 1.0 : 1.03;
        CHECK(found.size() == 1 && std::abs(found[0] - expected) < 1e-9, "heard %d: %zu attacks, first %g", int(heard),
              found.size(), found.empty() ? -1.0 : found[0]);
    }
}

TEST(levelRiseForgetsOnReset) {
    // −20 dB for 0.5 s, reset, −20 dB again: a new input, whose first result is an attack (had the
    // levels before the reset been kept, −20 after −20 would be none).
    LevelRise rise(0.01);
    for (int i = 0; i < 50; ++i) rise.process(i * 0.01, -20);
    rise.reset();
    CHECK(rise.process(0.5, -20), "the first level after reset was compared with the ones before it");
}

TEST(aBreakIsAnAttackAtTwentyTimesTheSoundBeforeIt) {
    CHECK(!isAttack({true, 0, 19.0}), "19x was an attack");
    CHECK(isAttack({true, 0, 21.0}), "21x was not an attack");
    CHECK(!isAttack({false, 0, 100.0}), "no break was an attack");
}

TEST(engineHearsARepluckAtTheSameLevelThatTheLevelAloneMisses) {
    // A2 stopped and plucked again every 0.93 s at the same strength (six partials, the k-th decaying
    // 1/e in 6/k s, so the level falls about 2 dB between plucks; each pluck starts at phase 0, a
    // third of a period away from where the last one was). The engine's onset: at each re-pluck
    // (within two hops), nowhere else after the first pluck. LevelRise alone over the same results
    // hears no attack after the first pluck: this is what the level cannot tell apart.
    const double fs = 48000;
    const std::size_t each = std::size_t(0.93 * fs);
    std::vector<float> pluck(each);
    for (std::size_t n = 0; n < each; ++n) {
        const double t = double(n) / fs;
        double v = 0;
        for (int k = 1; k <= 6; ++k) v += 0.3 / k * std::exp(-t * k / 6.0) * std::sin(2 * kPi * 110.0 * k * t);
        pluck[n] = float(v);
    }
    std::vector<float> x;
    for (int i = 0; i < 3; ++i) x.insert(x.end(), pluck.begin(), pluck.end());
    const std::vector<ct_result> results = signals::resultsOf(x, fs);
    LevelRise levelOnly(0.01);  // the default hop
    int levelAttacks = 0, atReplucks = 0, elsewhere = 0;
    for (const ct_result &r : results) {
        if (levelOnly.process(r.time, r.level_db) && r.time > 0.3) ++levelAttacks;
        if (!r.onset || r.time < 0.3) continue;
        const bool atRepluck = (r.time > 0.93 && r.time <= 0.951) || (r.time > 1.86 && r.time <= 1.881);
        // (one onset per re-pluck: two in its window would count twice)
        (atRepluck ? atReplucks : elsewhere) += 1;
    }
    CHECK(levelAttacks == 0, "the level alone heard %d attacks after the first pluck", levelAttacks);
    CHECK(atReplucks == 2, "%d onsets at the two re-plucks", atReplucks);
    CHECK(elsewhere == 0, "%d onsets elsewhere", elsewhere);
}
