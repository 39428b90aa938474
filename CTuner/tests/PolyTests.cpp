// PolyTests.cpp — the polyphonic analyser (PolyAnalyser, StringPartials) on synthetic strums: every
// string read near its own target, muted strings not heard, coincident partials not dragging a string.
#include "Check.hpp"
#include "Signals.hpp"
#include "PolyHops.hpp"
#include "Strums.hpp"

#include "../src/PolyAnalyser.hpp"
#include "../src/StringPartials.hpp"

#include <algorithm>
#include <random>
#include <cmath>
#include <initializer_list>
#include <stdexcept>
#include <string>

using namespace polyhops;

namespace {
const std::vector<double> kTargets = strums::standardTuning();

/// White Gaussian noise (generator seeded with `seed`) 20 dB under the RMS of the strum's first second.
void addNoiseTwentyDbUnder(std::vector<float> &x, unsigned seed) {
    double power = 0;
    for (std::size_t i = 0; i < std::size_t(kFs); ++i) power += double(x[i]) * double(x[i]);
    std::mt19937 rng(seed);
    std::normal_distribution<double> noise(0, std::sqrt(power / kFs) / 10.0);
    for (float &v : x) v += float(noise(rng));
}

/// A strum as strums.py's synthetic ones draw it: each string's cents (NaN: muted), pluck position and B.
std::vector<strums::PluckedString> drawnStrum(const std::vector<double> &cents, const std::vector<double> &pluckAt,
                                              const std::vector<double> &B) {
    auto strings = strums::detuned(kTargets, cents);
    for (std::size_t i = 0; i < strings.size(); ++i) {
        strings[i].pluckAt = pluckAt[i];
        strings[i].B = B[i];
    }
    return strings;
}

/// The targets (Hz) of a tuning's MIDI notes (A4 = 440 Hz).
std::vector<double> tuningOf(std::initializer_list<int> midi) {
    std::vector<double> targets;
    for (int m : midi) targets.push_back(440.0 * std::exp2((m - 69) / 12.0));
    return targets;
}

/// A strum of `targets` as strums.py's other-tunings set draws it: each string's cents, B, pluck
/// position, level (dB over an amplitude of 0.15) and start (s after the first string).
std::vector<strums::PluckedString> drawnStrumOf(const std::vector<double> &targets, const std::vector<double> &cents,
                                                const std::vector<double> &B, const std::vector<double> &pluckAt,
                                                const std::vector<double> &levelDb, const std::vector<double> &start) {
    std::vector<strums::PluckedString> strings(targets.size());
    for (std::size_t i = 0; i < targets.size(); ++i) {
        strings[i].frequency = targets[i] * std::exp2(cents[i] / 1200);
        strings[i].B = B[i];
        strings[i].pluckAt = pluckAt[i];
        strings[i].amplitude = 0.15 * std::pow(10.0, levelDb[i] / 20);
        strings[i].start = start[i];
    }
    return strings;
}

/// String i (`name`) heard on at least `minHeard` of the hops from `from` seconds, its median reading
/// within 0.2 ¢ of its own frequency and every reading within 0.5 ¢.
void checkHeardAndOnPitch(const std::vector<Hop> &hops, const std::vector<strums::PluckedString> &strings, std::size_t i,
                          const char *name, double from, double minHeard) {
    double heard = 0;
    const double m = medianCents(hops, i, strings[i].frequency, from, &heard);
    const double worst = maxAbsCents(hops, i, strings[i].frequency, from);
    CHECK(heard >= minHeard && std::abs(m) <= 0.2 && worst <= 0.5,
          "%s: heard on %.0f %% of the hops from %.1f s, median %.3f ¢, worst %.3f ¢", name, 100 * heard, from, m, worst);
}

/// String i (`name`), muted in the strum, heard on at most 1 % of the hops.
void checkMutedNotHeard(const std::vector<Hop> &hops, std::size_t i, const char *name) {
    const double heard = heardShare(hops, i, 0);
    CHECK(heard <= 0.01, "the muted %s was heard on %.1f %% of the hops", name, 100 * heard);
}

/// Every string heard on at least `minHeard` of the hops after `from` seconds, its median reading
/// within `bound(i)` cents of its own frequency.
template <class Bound>
void checkEveryString(const std::vector<Hop> &hops, const std::vector<strums::PluckedString> &strings, double from,
                      double minHeard, Bound bound) {
    for (std::size_t i = 0; i < strings.size(); ++i) {
        double heard = 0;
        const double m = medianCents(hops, i, strings[i].frequency, from, &heard);
        CHECK(heard >= minHeard && std::abs(m) <= bound(i),
              "string %zu: heard on %.0f %% of the hops after %.1f s, median %.3f ¢ (bound %.2f ¢)", i + 1,
              100 * heard, from, m, bound(i));
    }
}

/// A strum of `cents` (NaN: muted), `seconds` long in white noise of RMS 1e-4, whose string `quiet` is
/// played at `amplitude` and plucked at `pluckAt` (and `beside` at `besidePluckAt` when given): that string
/// heard on over 90 % of the hops after 0.4 s, it and the string `beside` it read within 0.5 ¢ in median.
void checkQuietStringBesideAnother(const std::vector<double> &cents, std::size_t quiet, double amplitude, double pluckAt,
                                   std::size_t beside, double seconds, double besidePluckAt = kNaN) {
    auto strings = strums::detuned(kTargets, cents);
    strings[quiet].amplitude = amplitude;
    strings[quiet].pluckAt = pluckAt;
    if (!std::isnan(besidePluckAt)) strings[beside].pluckAt = besidePluckAt;
    auto hops = analyse(kTargets, strums::strum(strings, kFs, seconds, 0.0001));
    double heard = 0;
    const double m = medianCents(hops, quiet, strings[quiet].frequency, 0.4, &heard);
    CHECK(heard > 0.9 && std::abs(m) <= 0.5, "string %zu: median %.3f ¢, heard on %.0f %% of the hops", quiet + 1, m,
          100 * heard);
    const double other = medianCents(hops, beside, strings[beside].frequency, 0.4);
    CHECK(std::abs(other) <= 0.5, "string %zu beside it: median %.3f ¢", beside + 1, other);
}
} // namespace

TEST(allSixStringsDetunedIndependentlyReadWithinHalfACent) {
    const std::vector<double> cents = {-23, 17, 8, -12, 29, -4};
    auto strings = strums::detuned(kTargets, cents);
    auto hops = analyse(kTargets, strums::strum(strings, kFs, 1.5, 0.0015));
    for (std::size_t i = 0; i < 6; ++i) {
        double heard = 0;
        const double m = medianCents(hops, i, strings[i].frequency, 0.4, &heard);
        CHECK(std::abs(m) <= 0.5 && heard > 0.99, "string %zu: median %.3f ¢, heard on %.0f %% of the hops", i + 1, m, 100 * heard);
        const double worst = maxAbsCents(hops, i, strings[i].frequency, 0.4);
        CHECK(worst <= 2.0, "string %zu: worst %.3f ¢ after 0.4 s", i + 1, worst);
    }
}

TEST(aMutedLowEIsNotHeardThoughItsFourthPartialSounds) {
    // E2's 4th, 8th, 12th partials are E4's 1st, 2nd, 3rd: a muted E2 finds peaks on its series there.
    auto strings = strums::detuned(kTargets, {kNaN, 5, -6, 3, -2, 7});
    auto hops = analyse(kTargets, strums::strum(strings, kFs, 1.2, 0.0015));
    double heard = 1;
    medianCents(hops, 0, kTargets[0], 0.1, &heard);
    CHECK(heard <= 0.01, "the muted E2 was heard on %.1f %% of the hops", 100 * heard);
    for (std::size_t i = 1; i < 6; ++i) {
        const double m = medianCents(hops, i, strings[i].frequency, 0.4);
        CHECK(std::abs(m) <= 0.5, "string %zu: median %.3f ¢ beside a muted E2", i + 1, m);
    }
}

TEST(aMutedHighEIsNotHeardFromTheLowEsPartials) {
    auto strings = strums::detuned(kTargets, {4, -3, 2, -5, 6, kNaN});
    auto hops = analyse(kTargets, strums::strum(strings, kFs, 1.2, 0.0015));
    double heard = 1;
    medianCents(hops, 5, kTargets[5], 0.1, &heard);
    CHECK(heard <= 0.01, "the muted E4 was heard on %.1f %% of the hops", 100 * heard);
    double a2 = 1;
    medianCents(hops, 1, kTargets[1], 0.4, &a2);
    CHECK(a2 > 0.99, "A2 heard on only %.1f %% of the hops", 100 * a2);
}

TEST(coincidentPartialsDoNotDragEitherString) {
    // E2 +20 ¢ and E4 −20 ¢: E2's 4th lies 40 ¢ (7.6 Hz) above E4's 1st, inside one main lobe; A2's 3rd
    // and B3 = E2's 3rd and D3's 3rd = A2's 4th likewise.
    // Known miss (BENCHMARKS.md, "Strums"): A2 −15 ¢ reads ~1 ¢ flat here, not within 0.5 ¢.
    const std::vector<double> cents = {20, -15, 15, 0, -20, -20};
    auto strings = strums::detuned(kTargets, cents);
    auto hops = analyse(kTargets, strums::strum(strings, kFs, 1.5, 0.0015));
    for (std::size_t i = 0; i < 6; ++i) {
        const double m = medianCents(hops, i, strings[i].frequency, 0.4);
        const double within = i == 1 ? 1.5 : 0.5;
        CHECK(std::abs(m) <= within, "string %zu (%+.0f ¢): median %.3f ¢", i + 1, cents[i], m);
    }
}

TEST(aQuietHighEWhoseFirstTwoPartialsAreTheA2sIsHeardThroughItsCleanOnes) {
    // E4 +17 ¢ is 15 ¢ above A2's 3rd: its 1st and 2nd partials (2.9 and 5.7 Hz from A2's 3rd and 6th)
    // are inside the collision distance and, E4 being 4× quieter than A2, often explained by A2's
    // envelope, so left to A2; its higher partials move clear of A2's series. FluidR3's strums lose B3
    // and E4 this way (BENCHMARKS.md, "Strums"). Without kMinCleanPartials E4 was heard on 81 % of the
    // hops (an A2 with B = 4e-4 or a louder E4 does not tell the rule apart).
    checkQuietStringBesideAnother({kNaN, 0, kNaN, kNaN, kNaN, 17}, 5, 0.04, 0.3, 1, 1.5);
}

TEST(aQuietB3WhoseFirstTwoPartialsLieOnTheLowEsIsHeardThroughItsCleanOnes) {
    // FluidR3 strum 205's E2 −29.4 ¢ and B3 +10.3 ¢ (strums.py's tuning part): B3's 1st and 2nd lie 5.3
    // and 10.6 Hz over E2's 3rd and 6th, inside the short frames' collision distance (12 Hz), and B3,
    // 18 dB under E2 and plucked near its middle, is weaker there than E2's envelope: both are left to
    // E2. Its 3rd, 5th and 7th are clear. Not heard before, it must start on them
    // (kCleanStartHighestPartial): heard on 0 % of the hops without that, 97 % with it.
    checkQuietStringBesideAnother({-29.4, kNaN, kNaN, kNaN, 10.3, kNaN}, 4, 0.018, 0.45, 0, 2.0);
}

TEST(anotherStringsSeriesIsFoundAtEveryPartialOfItsStiffString) {
    // OthersSeries::near inverts f_k = k·f0·sqrt(1 + B·k²) for the partial nearest a frequency: with
    // B = 5e-4 a low E's 20th partial lies 157 Hz (nearly two partials' spacing) over 20 × f1, its 40th
    // at 4421 Hz, 34 % over 40 × f1 (which falls between its 32nd and 33rd).
    ctuner::OthersSeries series;
    series.fits[series.count++] = {82.41, 5e-4};
    for (int k : {1, 2, 3, 17, 20, 40, 60}) {
        const double at = ctuner::seriesAt(k, series.fits[0]);
        CHECK(series.near(at + 5.9, 6.0) && series.near(at - 5.9, 6.0), "partial %d (%.2f Hz) not found", k, at);
        CHECK(!series.near(at + 6.1, 6.0) && !series.near(at - 6.1, 6.0), "6.1 Hz off partial %d (%.2f Hz) found", k, at);
    }
    CHECK(!series.near(20 * 82.41, 6.0) && !series.near(40 * 82.41, 6.0), "k × f1 found where no stiff partial is");
    ctuner::OthersSeries none;
    CHECK(!none.near(100.0, 6.0), "an empty set finds a partial");
}

TEST(aQuietB3FortyCentsOverTheLowEsThirdIsNotLedOntoItsSeries) {
    // FluidR3 strum 205's detunes (E2 −29.4 ¢, B3 +10.3 ¢: B3's 1st 5.3 Hz over E2's 3rd), B3 18 dB under
    // E2, E2 plucked at 15 % of its length (its 3rd, 6th, 9th partials strong). The search from B3's
    // harmonic sum takes E2's 3rd for its 1st partial, within 2 %, and the fit then follows E2's 6th, 9th…:
    // B3 heard on 69 % of the hops without the search apart from E2's series (StringPartials.cpp:
    // kApartFromSeriesPartials), 100 % with it, 71 % when that search must find 3 of its partials up to
    // the 8th off the others.
    checkQuietStringBesideAnother({-29.4, kNaN, kNaN, kNaN, 10.3, kNaN}, 4, 0.018, 0.2, 0, 2.0, 0.15);
}

TEST(aQuietB3OnTheLowEsSeriesIsHeardThroughThePartialsItWinsFromIt) {
    // B3 +0.5 ¢ is 25.5 ¢ above 3 × E2 −27 ¢: every partial k of B3 lies by E2's 3k-th, inside the short
    // frames' collision distance up to its 4th, and E2's fitted series (its B) claims the higher ones
    // too, so B3, 17 dB under E2 and plucked near its middle, has no three clean partials and its 1st
    // and 2nd are left to E2. E2 is plucked at a third of its length, so its 3k-th partials are weak and
    // B3 wins its own from E2's envelope (FluidR3's strums lose B3 and E4 this way: BENCHMARKS.md,
    // "Strums", stop 25). Heard on 74 % of the hops after 0.4 s; on none without the series rule
    // (StringPresence: kSeriesCents) or with it at 25 cents, on 74 % at 35. On 55 % when a search apart
    // from E2's series is taken on one partial off it (StringPartials.cpp: kApartFromSeriesPartials at
    // 1): the muted E4's search apart from it takes B3's partials in the attack, and B3 is heard later.
    auto strings = strums::detuned(kTargets, {-27.0, kNaN, kNaN, kNaN, 0.5, kNaN});
    strings[4].amplitude = 0.02;
    strings[4].pluckAt = 0.45;
    strings[0].pluckAt = 1.0 / 3;
    auto hops = analyse(kTargets, strums::strum(strings, kFs, 2.0, 0.0001));
    double heard = 0;
    const double m = medianCents(hops, 4, strings[4].frequency, 0.4, &heard);
    const double worst = maxAbsCents(hops, 4, strings[4].frequency, 0.4);
    CHECK(heard > 0.6 && std::abs(m) <= 0.5 && worst <= 0.5, "B3: heard on %.0f %% of the hops, median %.3f ¢, worst %.3f ¢",
          100 * heard, m, worst);
    const double e2 = medianCents(hops, 0, strings[0].frequency, 0.4);
    CHECK(std::abs(e2) <= 0.5, "E2 beside it: median %.3f ¢", e2);
}

TEST(aMutedHighEOnTheLowStringsSeriesWinsNoPartialOnTheirFrequencies) {
    // The other side: E4 muted, E2 −5.5 ¢ and A2 plucked at 12 % of their length, whose comb notches
    // near their 8th–9th partials make their envelopes mispredict the partials beside them. The muted
    // E4 (4 × E2, 3 × A2) wins some of E2's and A2's partials there, but on their own frequencies:
    // reported on 8 of 196 hops (4.1 %) when those count (StringClaims.cpp: kWonOffClaimantBins at 0), on
    // none at 0.1 bin and up.
    auto strings = strums::detuned(kTargets, {-5.5, 0, 3, -4, 11, kNaN});
    strings[0].pluckAt = strings[1].pluckAt = 0.12;
    const double reported = heardShare(analyse(kTargets, strums::strum(strings, kFs, 2.0, 0.0005)), 5, 0.05);
    CHECK(reported == 0, "muted E4 reported on %.1f %% of the hops", 100 * reported);
}

TEST(stringsASemitoneOffTheirTargetsAreReadThere) {
    // Known miss (BENCHMARKS.md, "Strums"): E2 a semitone sharp (F2) is not heard beside A2 a
    // semitone flat; strings 2–6 are.
    const std::vector<double> cents = {100, -100, 0, 100, -100, 0};
    auto strings = strums::detuned(kTargets, cents);
    auto hops = analyse(kTargets, strums::strum(strings, kFs, 1.5, 0.0015));
    for (std::size_t i = 1; i < 6; ++i) {
        const double m = medianCents(hops, i, strings[i].frequency, 0.4);
        CHECK(std::abs(m) <= 0.5, "string %zu (%+.0f ¢): median %.3f ¢", i + 1, cents[i], m);
    }
}

TEST(stringsStruckFortyMillisecondsApartAreEachRead) {
    // Known miss (BENCHMARKS.md, "Strums"): E2 −7 ¢ reads ~1.1 ¢ flat here, not within 0.5 ¢.
    auto strings = strums::detuned(kTargets, {-7, 3, 12, -9, 1, 6}, 0.04);
    auto hops = analyse(kTargets, strums::strum(strings, kFs, 1.5, 0.0015));
    for (std::size_t i = 0; i < 6; ++i) {
        const double m = medianCents(hops, i, strings[i].frequency, 0.6);
        CHECK(std::abs(m) <= (i == 0 ? 1.5 : 0.5), "string %zu: median %.3f ¢", i + 1, m);
    }
}

TEST(silenceAndNoiseUnderTheGateHearNoString) {
    std::vector<float> x = strums::strum({}, kFs, 0.6, 0.0005);  // −66 dBFS of noise
    auto hops = analyse(kTargets, x);
    std::size_t heard = 0;
    for (const Hop &h : hops)
        for (const ct_poly_string &s : h.strings) heard += s.heard;
    CHECK(!hops.empty() && heard == 0, "%zu string readings in %zu hops of noise under the gate", heard, hops.size());
}

TEST(noiseAboveTheGateHearsNoString) {
    std::vector<float> x = strums::strum({}, kFs, 0.8, 0.01);  // −40 dBFS of white noise
    auto hops = analyse(kTargets, x);
    std::size_t heard = 0, total = 0;
    for (const Hop &h : hops)
        for (const ct_poly_string &s : h.strings) heard += s.heard, ++total;
    CHECK(heard <= total / 100, "%zu of %zu string readings in white noise", heard, total);
}

TEST(oneHopPerHopOfInputAtTheRightTime) {
    auto hops = analyse(kTargets, std::vector<float>(4410 * 3 + 100, 0.0f));
    CHECK(hops.size() == 30, "%zu hops", hops.size());
    CHECK(!hops.empty() && std::abs(hops.back().time - 0.3) < 1e-9, "last at %.6f s", hops.empty() ? 0.0 : hops.back().time);
}

TEST(createRefusesStringsItCannotTellApart) {
    ct_config c;
    c.sample_rate = kFs, c.min_frequency = 29, c.max_frequency = 4200, c.gate_db = -60, c.hop_seconds = 0.01;
    auto refuses = [&](std::vector<double> t, const char *why) {
        try {
            ctuner::PolyAnalyser a(c, t.data(), t.size());
        } catch (const std::invalid_argument &e) {
            CHECK(std::string(e.what()).find(why) != std::string::npos, "'%s' does not say '%s'", e.what(), why);
            return;
        }
        CHECK(false, "accepted (%s)", why);
    };
    refuses({}, "no strings");
    refuses({82.4, 87.3}, "closer than");     // a semitone apart
    refuses({82.4, 20000}, "frequency range");
    refuses(std::vector<double>(13, 0) , "at most 12");
    std::vector<double> wide = {82.4, 98.0};   // three semitones apart: separate search ranges
    ctuner::PolyAnalyser ok(c, wide.data(), wide.size());
    CHECK(ok.hopSize() == 441, "hop %zu", ok.hopSize());
}

namespace {
/// The hop (seconds after `from`) at which string i is first heard; infinity when never.
double firstHeard(const std::vector<Hop> &hops, std::size_t i, double from) {
    for (const Hop &h : hops)
        if (h.time >= from && h.strings[i].heard) return h.time - from;
    return INFINITY;
}
} // namespace

TEST(mutedStringsAreNotHeardInTheAttack) {
    // While a strum fills the frame, the other strings' series are not yet found to claim the peaks a
    // muted string finds on its own (StringPartials: kAttackRise, StrumPass: kAttackEnergyRise).
    // Without the attack guard these four strums reported their muted strings on 3, 8, 7 and 10 hops
    // of their first 0.25 s (3, 14, 7 and 12 with kOverFloor 5); with the guard, 0, 1, 0, 0; with
    // kAttackRise at 8, on 4 hops; with no energy test (kAttackEnergyRise 1e9), on up to 10. With
    // kAttackEnergyRise at 0.5 (every hop an attack) E4 of the last strum was first heard at 0.44 s. The
    // bound on the sounding strings' first hop, 0.35 s, is 0.39 s since a string is first reported once
    // heard for kFirstReportSeconds (PolyAnalyser.cpp): the last strum's E4 at 0.36 s.
    struct Case {
        std::vector<double> cents;
        double gap;
    };
    for (const Case &k : {Case{{20, kNaN, -20, 10, kNaN, 5}, 0.008}, Case{{kNaN, 12, -8, 5, kNaN, -3}, 0.02},
                          Case{{-20, 15, kNaN, -10, 12, kNaN}, 0.02}, Case{{25, -10, 5, kNaN, kNaN, -15}, 0.04}}) {
        auto strings = strums::detuned(kTargets, k.cents, k.gap);
        auto hops = analyse(kTargets, strums::strum(strings, kFs, 1.0, 0.0015));
        std::size_t muted = 0;
        for (std::size_t i = 0; i < 6; ++i) {
            for (const Hop &h : hops) muted += std::isnan(k.cents[i]) && h.strings[i].heard;
            if (!std::isnan(k.cents[i]))  // … and the guard does not hold the sounding strings back past the attack
                CHECK(firstHeard(hops, i, 0) <= 0.39, "gap %.3f s: string %zu first heard at %.2f s", k.gap, i + 1,
                      firstHeard(hops, i, 0));
        }
        CHECK(muted <= 1, "gap %.3f s: the muted strings were heard on %zu hops", k.gap, muted);
    }
}

TEST(aLowEOnlyTheLongFramesPlaceIsReportedOnceTheyHaveHeardItForLong) {
    // E2 A2 D3 G3 in tune, B3 and E4 muted: the short frames' harmonic sum puts E2 at 78.4 Hz, on G3's
    // 2nd, 4th and 6th partials (a bin below E2's own 1st, whose main lobe it collects), and never hears
    // it there, while the long frames read E2 from 0.5 s. Established by the long frames alone after
    // kEstablishedSeconds past the attack (PolyAnalyser.cpp), it is reported from ~1.0 s; before the rule,
    // never.
    auto strings = strums::detuned(kTargets, {0, 0, 0, 0, kNaN, kNaN});
    auto hops = analyse(kTargets, strums::strum(strings, kFs, 2.0, 0.0015));
    double heard = 0;
    const double m = medianCents(hops, 0, strings[0].frequency, 1.2, &heard);
    CHECK(heard >= 0.95, "E2 heard on %.0f %% of the hops from 1.2 s", 100 * heard);
    CHECK(std::abs(m) <= 0.1, "E2: median %.3f ¢", m);
    CHECK(firstHeard(hops, 0, 0) <= 1.1, "E2 first heard at %.2f s", firstHeard(hops, 0, 0));
    for (std::size_t i = 1; i < 4; ++i)
        CHECK(firstHeard(hops, i, 0) <= 0.3, "string %zu first heard at %.2f s", i + 1, firstHeard(hops, i, 0));
}

TEST(aMutedB3OnALowEOnlyTheLongFramesPlaceIsNotReportedOnIt) {
    // The strum of aLowEOnlyTheLongFramesPlace…: while the short frames search E2 on G3's partials, E2's
    // 3rd, 6th, 9th… are no string's to claim, and the muted B3, 2 ¢ over E2's 3rd, took them: reported
    // on 89 % of the hops. With the short frames' search started where the long frames have heard E2 for
    // kSeedAfterSeconds (PolyAnalyser.cpp), only until then (22 %; 27 % at 0.3 s, 12 % at once), and E2
    // is reported from 0.68 s, not 1.0 s.
    auto strings = strums::detuned(kTargets, {0, 0, 0, 0, kNaN, kNaN});
    auto hops = analyse(kTargets, strums::strum(strings, kFs, 2.0, 0.0015));
    CHECK(heardShare(hops, 4, 0) <= 0.25, "muted B3 heard on %.0f %% of the hops", 100 * heardShare(hops, 4, 0));
    CHECK(heardShare(hops, 4, 0.8) == 0, "muted B3 heard on %.0f %% of the hops from 0.8 s", 100 * heardShare(hops, 4, 0.8));
    CHECK(heardShare(hops, 5, 0) == 0, "muted E4 heard on %.0f %% of the hops", 100 * heardShare(hops, 5, 0));
    CHECK(firstHeard(hops, 0, 0) <= 0.75, "E2 first heard at %.2f s", firstHeard(hops, 0, 0));
}

TEST(aStringStruckIntoARingingStrumIsHeardAtOnce) {
    // Five strings ring; E4 is struck 0.4 s later. The strum's energy rises by less than
    // kAttackEnergyRise, so E4's rising partials are not held back by the attack guard: it is heard
    // 0.20 s after its pluck, as without the guard (with kAttackEnergyRise at 0.5, where every hop
    // is an attack, 0.25 s).
    auto strings = strums::detuned(kTargets, {3, -4, 6, -2, 5, 8});
    strings[5].start = 0.4;
    auto hops = analyse(kTargets, strums::strum(strings, kFs, 1.2, 0.0015));
    const double first = firstHeard(hops, 5, 0.4);
    CHECK(first <= 0.22, "E4 struck at 0.4 s first heard %.2f s later", first);
    const double m = medianCents(hops, 5, strings[5].frequency, 0.8);
    CHECK(std::abs(m) <= 0.5, "E4: median %.3f ¢", m);
}

/// strums.py's tuning seed 2 as PluckedStrings (B3 left out when `mutedB3`).
std::vector<strums::PluckedString> seedTwoStrum(bool mutedB3) {
    return drawnStrum({-25.5, -19.8, 13.8, 15.3, mutedB3 ? kNaN : -25.2, -8.9}, {0.179, 0.119, 0.298, 0.206, 0.165, 0.269},
                      {1.66e-4, 1.98e-4, 1.12e-4, 9.8e-5, 7.7e-5, 6.3e-5});
}

TEST(aB3OnTheLowEsThirdIsHeardWhenTheLowEsNextPartialsAreMissing) {
    // strums.py's tuning seed 2 (its cents, pluck positions and B): B3 −25.2 ¢ is 0.2 Hz from E2
    // −25.5 ¢'s 3rd, one peak, which B3 fills. E2's 4th is 3 Hz under E4 −8.9 ¢'s 1st, inside E4's
    // peak, so not found, and its 5th is weak (plucked at 0.18): E2's envelope at its 6th (B3's 2nd)
    // had no clean neighbour and was predicted from E2's shared 3rd, i.e. from B3's own fundamental,
    // so B3's 2nd was left to E2 and B3 was heard on 55 % of the hops (0 % on the seed itself). It is
    // now predicted from E2's clean 2nd (StringPartials::envelopeAt).
    auto strings = seedTwoStrum(false);
    auto hops = analyse(kTargets, strums::strum(strings, kFs, 1.5));
    checkEveryString(hops, strings, 0.4, 0.9, [](std::size_t) { return 0.5; });
}

TEST(aHighEWhoseFirstPartialIsOnePeakWithTheLowEsFourthIsReadFromItsOtherPartials) {
    // The same strum: E4 −8.9 ¢'s 1st partial lies 2.7 Hz over E2 −25.5 ¢'s 4th, one peak. Fitted with
    // that shared 1st partial E4 read up to 1.02 ¢ off; left out of the fit (StringClaims.cpp:
    // kFitWithoutSharedFirst), at most 0.22 ¢ (0.44 ¢ at 10; at 12, where E4 has fewer other own
    // partials, the rule is off: 1.02 ¢).
    auto strings = seedTwoStrum(false);
    auto hops = analyse(kTargets, strums::strum(strings, kFs, 1.5));
    double heard = 0;
    const double m = medianCents(hops, 5, strings[5].frequency, 0.4, &heard);
    const double worst = maxAbsCents(hops, 5, strings[5].frequency, 0.4);
    CHECK(heard > 0.95 && std::abs(m) <= 0.1 && worst <= 0.5, "E4: heard on %.0f %% of the hops, median %.3f ¢, worst %.3f ¢",
          100 * heard, m, worst);
}

TEST(aMutedB3OnTheLowEsThirdIsNotHeardWhenTheLowEsNextPartialsAreMissing) {
    // The other side of the test above: the same strum with B3 muted. E2's 3rd now stands where B3's
    // 1st would, with no 2nd of B3's own beside it; predicting E2's envelope from its clean 2nd must
    // not hand E2's 6th to the muted B3. (It passes on the rule before too, and with no fallback at
    // all in envelopeAt, which fails five other tests: a guard on this strum, not yet a bracket.)
    const double reported = heardShare(analyse(kTargets, strums::strum(seedTwoStrum(true), kFs, 1.5)), 4, 0.05);
    CHECK(reported == 0, "muted B3 reported on %.1f %% of the hops", 100 * reported);
}

TEST(aStrumPluckedNearTheBridgeKeepsItsSharedPartialsApart) {
    // Plucked at 3 % of the string, every string's lowest ten partials fall as 1/k, not 1/k² (sin(kπp)
    // ≈ kπp). The other side of StringPartials::envelopeAt's cap, which extrapolates a clean partial
    // below on 1/k: extrapolated on 1/k² (as the rest of envelopeAt does), it understates a string's
    // upper partials, other strings keep them as their own, and E2 read −0.46 ¢ here (replacing the
    // nearest partial's prediction by it instead of capping: E2 −0.46, A2 −0.66 ¢). Main and the 1/k
    // cap read E2 −0.18, A2 −0.20 ¢; the 0.3 ¢ bound was set between them, seeing both.
    const std::vector<double> cents = {-12, 7, 0, 18, -5, 2};
    auto strings = strums::detuned(kTargets, cents);
    for (auto &s : strings) s.pluckAt = 0.03;
    auto hops = analyse(kTargets, strums::strum(strings, kFs, 1.5));
    checkEveryString(hops, strings, 0.4, 0.95, [](std::size_t) { return 0.3; });
}

TEST(aSharedPartialWeighsByTheMostItsClaimantMayPutThere) {
    // strums.py's tuning seed 18 (its cents, pluck positions and B; 40 dB there, clean here). From
    // 0.3 s A2 −22.8 ¢ is fitted on its 1st, 2nd and 15th partials; its 3rd and 4th are left to E2's
    // and E4's series. The 15th shares a peak with E4 −8.3 ¢'s 5th, and E4's envelope there was low
    // enough to leave it to A2 as its own, weighed almost fully: A2 read −0.37 ¢ on every hop from
    // 0.4 s. Weighed by what E4 may put there at most (its envelope, or its clean partial below on
    // 1/k: StringClaims.cpp's kContamination), −0.05 ¢. The 0.2 ¢ bound was set between the two, seeing both.
    const auto strings = drawnStrum({-24.6, -22.8, -9.5, 19.0, -5.6, -8.3}, {0.255, 0.217, 0.293, 0.148, 0.177, 0.271},
                                    {6.42e-5, 7.23e-5, 1.19e-4, 5.94e-5, 7.15e-5, 1.17e-4});
    auto hops = analyse(kTargets, strums::strum(strings, kFs, 1.5));
    checkEveryString(hops, strings, 0.4, 0.95, [](std::size_t i) { return i == 1 ? 0.2 : 0.5; });
}

TEST(aStrumTwentyDbOverTheNoiseIsHeard) {
    // White noise 20 dB under the strum's RMS: every string's upper partials sink under the noise, and
    // with the monophonic engine's 18 dB-over-floor rule E4 was heard on 18 % of the hops; at 14 dB,
    // 88 % (StringPartials: kOverFloor; at 2.5×, 8 dB, noiseAboveTheGateHearsNoString fails). The miss
    // noted beside it until stop 19, B3 a few tenths of a hertz from E2's 3rd left to E2 when E2's 4th
    // and 5th are not found, is the test aB3OnTheLowEsThird… above.
    const std::vector<double> cents = {-25, 4, -10, 22, 1, 14};
    auto strings = strums::detuned(kTargets, cents, 0.015);
    std::vector<float> x = strums::strum(strings, kFs, 1.5);
    addNoiseTwentyDbUnder(x, 7);
    auto hops = analyse(kTargets, x);
    checkEveryString(hops, strings, 0.6, 0.8, [](std::size_t) { return 1.0; });
}

/// White noise 20 dB under the strum's RMS, strings 20 ms apart, held 2.5 s (noise seed 9): its strings
/// into `strings`, its hops returned.
static std::vector<Hop> twentyDbStrumHeldTwoAndAHalfSeconds(std::vector<strums::PluckedString> &strings) {
    strings = strums::detuned(kTargets, {-7, 21, -15, 11, 26, -19}, 0.02);
    std::vector<float> x = strums::strum(strings, kFs, 2.5);
    addNoiseTwentyDbUnder(x, 9);
    return analyse(kTargets, x);
}

TEST(aTwentyDbStrumKeepsEveryStringToItsEnd) {
    // White noise 20 dB under the strum's RMS, strings 20 ms apart, held 2.5 s (noise seed 9). Two
    // lower noise floors tried for strings already followed lost this strum's E4 for good: one for
    // every followed string (stop 16: E4 heard on 2 % of the hops after 0.6 s) and one applied after
    // the other strings were resolved, each string against the others' state at kOverFloor (stop 17:
    // 1 %). A string's fit from its fainter partials seeds its next hop's search, and another
    // string's series then takes E4's 2nd and 3rd partials. Main hears every string on every hop.
    std::vector<strums::PluckedString> strings;
    auto hops = twentyDbStrumHeldTwoAndAHalfSeconds(strings);
    checkEveryString(hops, strings, 0.6, 0.95, [](std::size_t) { return 1.0; });
}

TEST(aTwentyDbStrumIsReadToAFewTenthsOfACentOnTheLongFrames) {
    // The strum of aTwentyDbStrumKeepsEveryStringToItsEnd. From 0.8 s every string's reading comes from
    // the 0.5 s frames (PolyAnalyser: kLongFrameSeconds), whose bins are half as wide: each string's
    // worst reading is 0.09–0.28 ¢ off (E2 0.28). On the 0.25 s frames alone, 0.20–1.07 ¢ (E2 0.83,
    // A2 0.69, D3 0.57, B3 1.07, E4 0.43; G3 0.20). The bound, 0.35 ¢, lies between.
    std::vector<strums::PluckedString> strings;
    auto hops = twentyDbStrumHeldTwoAndAHalfSeconds(strings);
    for (std::size_t i = 0; i < strings.size(); ++i) {
        const double worst = maxAbsCents(hops, i, strings[i].frequency, 0.8);
        CHECK(heardShare(hops, i, 0.8) > 0.99 && worst <= 0.35, "string %zu: heard on %.0f %% of the hops after 0.8 s, worst %.3f ¢",
              i + 1, 100 * heardShare(hops, i, 0.8), worst);
    }
}

TEST(theLongFramesAreReadOnlyOnceTheStrumsOnsetHasLeftThem) {
    // The strum of allSixStringsDetunedIndependently…: taken as soon as they heard a string, the long
    // frames read E2 3.5 ¢ off 0.48 s after the strum (the pair still held the onset); 0.4 s after the
    // short frames' last attack hop, 0.26 ¢; 0.45–0.6 s and never, at most 0.08 ¢ for strings 1–5
    // (PolyAnalyser: kLongAfterAttackSeconds, 0.5 s). E4's worst, 1.47 ¢, is its short-frame reading at
    // 0.4 s whatever the rule.
    const std::vector<double> cents = {-23, 17, 8, -12, 29, -4};
    auto strings = strums::detuned(kTargets, cents);
    auto hops = analyse(kTargets, strums::strum(strings, kFs, 1.5, 0.0015));
    for (std::size_t i = 0; i < 5; ++i) {
        const double worst = maxAbsCents(hops, i, strings[i].frequency, 0.4);
        CHECK(worst <= 0.1, "string %zu: worst %.3f ¢ after 0.4 s", i + 1, worst);
    }
}

TEST(aB3LostInTheNoiseByTheShortFramesIsKeptByTheLongOnes) {
    // Six strings plucked as strums.py's synthetic ones are (positions 0.12–0.28, B 1.2–1.7e-4, levels
    // within ±3 dB), 20 ms apart, white noise 20 dB under the strum (seed 170). B3 −21 ¢ sits 1.4 Hz from
    // E2's 3rd (−7 ¢) and, plucked at 0.12, falls into the noise: the short frames hear it on 19 % of
    // the hops after 0.6 s. Having heard it for 0.3 s in a row, they let the long frames keep it: 99 %
    // (PolyAnalyser: kEstablishedSeconds; the same at 0.1–0.5 s, 19 % again at 0.6 s).
    const std::vector<double> cents = {-7, -2, 0, 1, -21, -9};
    const std::vector<double> pluckAt = {0.24, 0.25, 0.21, 0.17, 0.12, 0.28};
    const std::vector<double> B = {1.7e-4, 1.6e-4, 1.4e-4, 1.2e-4, 1.7e-4, 1.7e-4};
    const std::vector<double> amplitude = {0.19, 0.17, 0.16, 0.17, 0.13, 0.11};
    auto strings = drawnStrum(cents, pluckAt, B);
    for (std::size_t i = 0; i < strings.size(); ++i) {
        strings[i].amplitude = amplitude[i];
        strings[i].start = 0.02 * double(i);
    }
    std::vector<float> x = strums::strum(strings, kFs, 2.5);
    addNoiseTwentyDbUnder(x, 170);
    auto hops = analyse(kTargets, x);
    double heard = 0;
    const double m = medianCents(hops, 4, strings[4].frequency, 0.6, &heard);
    const double worst = maxAbsCents(hops, 4, strings[4].frequency, 0.6);
    CHECK(heard >= 0.9 && std::abs(m) <= 0.5 && worst <= 2, "B3: heard on %.0f %% of the hops after 0.6 s, median %.3f ¢, worst %.3f ¢",
          100 * heard, m, worst);
}

TEST(aQuietHighEBesideTheA2sThirdStaysOnItsOwnSeries) {
    // E4 −28.7 ¢ (324.3 Hz) and A2 −10.2 ¢, whose 3rd partial (328.1 Hz) lies 2.7 bins above E4's 1st in
    // the 0.5 s frames, as in strums.py's FluidR3 strum 202; E4's partials fall as 1/k, as those renders'
    // do. When the merged peak moved the search's first partial onto A2's 3rd, E4's 2nd fell outside its
    // tolerance and E4 followed A2's series for a hop, read 8 ¢ off (StringPartials: kJumpRatio,
    // kHeldPartials; kJumpCheckAfterSeconds). Without the rule E4 is heard on 79 % of the hops after 0.5 s,
    // its worst reading 8.3 ¢ off; with it, on 90 %, within 2.0 ¢.
    std::vector<strums::PluckedString> strings(6);
    for (strums::PluckedString &s : strings) s.frequency = 0;
    strings[0].frequency = kTargets[0] * std::exp2(-15.1 / 1200);
    strings[1].frequency = kTargets[1] * std::exp2(-10.2 / 1200);
    std::vector<float> x = strums::strum(strings, kFs, 2.5, 0.0003);
    const double e4 = kTargets[5] * std::exp2(-28.7 / 1200), B = 3e-5;
    for (int k = 1; k <= 14; ++k) {
        const double fk = k * e4 * std::sqrt((1 + B * k * k) / (1 + B)), a = 0.04 / k;
        for (std::size_t i = 0; i < x.size(); ++i) {
            const double t = double(i) / kFs;
            x[i] += float(a * std::exp(-(0.6 + 0.1 * k) * t) * std::sin(2 * ctuner::kPi * fk * t + 0.3 * k));
        }
    }
    auto hops = analyse(kTargets, x);
    const double heard = heardShare(hops, 5, 0.5), worst = maxAbsCents(hops, 5, e4, 0.5);
    CHECK(heard >= 0.85 && worst <= 3, "E4 heard on %.0f %% of the hops after 0.5 s, worst %.1f ¢ off", 100 * heard, worst);
}

TEST(aBassesLowEIsHeardThoughItsHarmonicSumMeetsTheHigherStringsFundamentals) {
    // A bass strum (E1 A1 D2 G2). E1's search range (38.2–44.4 Hz) lies inside the main lobe of its own
    // 1st partial in both frame lengths, so every candidate there collects it; the one whose 2nd partial
    // met D2's 1st won the harmonic sum on every hop, its search found none of E1's partials, and E1 was
    // never heard (and A1 only from 0.68 s). With the sum made again without the fundamentals of the
    // strings already followed (StringPartials.cpp: kOthersPartialsOutOfTheSum), E1 is read from ~0.7 s.
    std::vector<double> bass;
    for (int midi : {28, 33, 38, 43}) bass.push_back(440.0 * std::exp2((midi - 69) / 12.0));
    for (const std::vector<double> &cents : {std::vector<double>{0, 0, 0, 0}, {-20, 15, -8, 12}, {30, -30, 20, -20}}) {
        auto strings = strums::detuned(bass, cents);
        for (strums::PluckedString &s : strings) s.B = 2e-4;
        auto hops = analyse(bass, strums::strum(strings, kFs, 2.5, 0.0015));
        double heard = 0;
        const double m = medianCents(hops, 0, strings[0].frequency, 0.8, &heard);
        CHECK(heard >= 0.95 && std::abs(m) <= 0.1, "E1 %+.0f ¢: heard on %.0f %% of the hops from 0.8 s, median %.3f ¢",
              cents[0], 100 * heard, m);
        for (std::size_t i = 1; i < 4; ++i)
            CHECK(firstHeard(hops, i, 0) <= 0.3, "string %zu first heard at %.2f s", i + 1, firstHeard(hops, i, 0));
    }
}

TEST(anOpenGsOctaveStringsAreHeardThoughTheHigherOnesSumUnderTheLower) {
    // Open G (D2 G2 D3 G3 B3 D4) as strums.py's other-tunings strum 2 draws it: D2 +23.8 ¢, D3 +28.7 ¢
    // (one peak with D2's 2nd), D4 −29.5 ¢. D3's harmonic sum settled on D4's sub-octave (144.3 Hz: its
    // 2nd, 4th, 6th partials D4's 1st, 2nd, 3rd), D4's on its own octave's partials, and neither was
    // heard; D2 read 2.8 ¢ off. A search grounded only on another string's fundamental sums again
    // without it (StringPartials.cpp: kOthersPartialsOutOfTheSum). A known miss here: G3, 0.3 ¢ from
    // 2 × G2, is heard on about half of the hops (G2, on its 1st partial alone since
    // StringPresence's kLoneFirstHiddenPartials, on all of them; on none before).
    const std::vector<double> openG = tuningOf({38, 43, 50, 55, 59, 62});
    const auto strings = drawnStrumOf(openG, /* cents */ {23.8, -20.4, 28.7, -1.2, -28.5, -29.5},
                                      /* B */ {1.78e-4, 1.46e-4, 1.25e-4, 1.44e-4, 1.77e-4, 1.25e-4},
                                      /* pluck position */ {0.142, 0.255, 0.226, 0.25, 0.278, 0.184},
                                      /* level (dB) */ {-2.57, 1.52, -2.56, 0.32, -1.96, 2.98},
                                      /* start (s) */ {0, 0.0088, 0.0117, 0.0194, 0.0196, 0.0228});
    auto hops = analyse(openG, strums::strum(strings, kFs, 2.5, 0.0015));
    for (std::size_t i : {0, 2, 5}) {
        double heard = 0;
        const double m = medianCents(hops, i, strings[i].frequency, 0.6, &heard);
        CHECK(heard >= 0.95 && std::abs(m) <= 0.2, "string %zu: heard on %.0f %% of the hops from 0.6 s, median %.3f ¢", i + 1,
              100 * heard, m);
    }
}

TEST(anOpenDsLowDWhoseOddPartialsOnlyTheLongFramesPartIsReportedOnThem) {
    // Open D (D2 A2 D3 F#3 A3 D4) as strums.py's other-tunings strum 3 draws it: every string lies on
    // D2's series, so in the 0.25 s frames each partial of D2's from the 2nd up shares one main lobe
    // with another string's (its 3rd with A3 +27 ¢ and A2's 2nd, its 5th with F#3's 2nd…) and its 1st
    // is its only own partial: the short frames place D2 (within kDisagreeCents of the long frames) but
    // never hear it. The long frames part its odd partials and hear it from 0.55 s. Before a string the
    // short frames find too few own partials of counted as placed elsewhere (kEstablishedSeconds), D2
    // was never reported.
    const std::vector<double> openD = tuningOf({38, 45, 50, 54, 57, 62});
    const auto strings = drawnStrumOf(openD, /* cents */ {-15.5, 2.3, 16.7, -21.4, 27.1, -13.1},
                                      /* B */ {1.59e-4, 1.04e-4, 6.08e-5, 9.62e-5, 6.59e-5, 1.64e-4},
                                      /* pluck position */ {0.25, 0.108, 0.275, 0.201, 0.225, 0.208},
                                      /* level (dB) */ {-1.88, 0.16, 0.57, -2.41, -1.54, -1.42},
                                      /* start (s) */ {0, 0.0017, 0.0029, 0.0069, 0.0093, 0.011});
    // With the rule: heard on 83 % of the hops from 1.0 s (the long frames lose it on a few), median
    // 0.05 ¢, worst 0.36 ¢; without it on 28 %, the short frames' own hops.
    checkHeardAndOnPitch(analyse(openD, strums::strum(strings, kFs, 2.5, 0.0015)), strings, 0, "D2", 1.0, 0.75);
}

TEST(anOpenGsG2WhosePartialsAreAllHiddenIsHeardOnItsFirst) {
    // Open G as strums.py's other-tunings strum 0 draws it: G2 +0.7 ¢ has its 2nd and 4th partials 2.9
    // and 5.9 Hz from a G3 25 ¢ flat (one main lobe even in the 0.5 s frames), its 3rd, 6th, 9th on
    // D4's 1st, 2nd, 3rd, its 5th beside B3's 2nd, and little from its 7th up (plucked at 0.14): its 1st
    // partial is its only own one. Heard on it alone (StringPresence: kLoneFirstHiddenPartials); never
    // without.
    const std::vector<double> openG = tuningOf({38, 43, 50, 55, 59, 62});
    const auto strings = drawnStrumOf(openG, /* cents */ {26.6, 0.7, 28.6, -25.1, 6.4, -7.4},
                                      /* B */ {1.15e-4, 7.56e-5, 1.29e-4, 1.12e-4, 1.75e-4, 1.52e-4},
                                      /* pluck position */ {0.258, 0.144, 0.241, 0.281, 0.298, 0.3},
                                      /* level (dB) */ {-0.83, 1.2, -1.25, 0.21, -2.88, 2.71},
                                      /* start (s) */ {0, 0.0046, 0.0057, 0.0107, 0.0139, 0.0191});
    // Measured: heard on 100 % of the hops from 0.6 s, median −0.001 ¢, worst 0.075 ¢ (without: 0 %).
    checkHeardAndOnPitch(analyse(openG, strums::strum(strings, kFs, 2.5, 0.0015)), strings, 1, "G2", 0.6, 0.95);
}

TEST(aFiveStringBassesLowBIsFoundByTheLongFramesSumThroughItsFirstPartial) {
    // A five-string bass (B0 E1 A1 D2 G2) with B0 23 ¢ flat, at 30.45 Hz. Its search range (28.6–33.3
    // Hz) spans 3.2 bins of the 0.5 s frames' FFT, so B0's own peak was the largest magnitude within ±1
    // bin of nearly every candidate of the harmonic sum: its 1st term did not steer the sum, its 3rd did
    // (31.77 Hz × 3, beside G2's 1st 28 ¢ flat), and the search from 31.77 Hz, B0's 1st partial 1.3 Hz
    // (4 %) away, found nothing. With the 1st partial taken at the candidate itself in the long frames
    // (StringPartials.cpp: kCoarsePartials), heard on 98 % of the hops from 0.6 s (without: 5 %). What it
    // costs here: E1 and A1, whose 3rd and 6th and whose 1st partial lie within 3 frame bins of B0's 4th,
    // 8th and 2nd, are heard on 17 and 75 % of those hops instead of 66 and 98 %.
    const std::vector<double> bass5 = tuningOf({23, 28, 33, 38, 43});
    const auto strings = drawnStrumOf(bass5, /* cents */ {-23.4, 3.6, 29.4, -10.0, -28.3},
                                      /* B */ {8.98e-5, 1.69e-4, 1.98e-4, 1.49e-4, 6.34e-5},
                                      /* pluck position */ {0.277, 0.178, 0.132, 0.175, 0.144},
                                      /* level (dB) */ {2.01, 1.89, 1.96, -0.71, 0.25},
                                      /* start (s) */ {0, 0.0026, 0.0041, 0.0079, 0.0108});
    auto hops = analyse(bass5, strums::strum(strings, kFs, 2.5, 0.0015));
    double heard = 0;
    const double m = medianCents(hops, 0, strings[0].frequency, 0.6, &heard);
    CHECK(heard >= 0.9 && std::abs(m) <= 0.1, "B0: heard on %.0f %% of the hops from 0.6 s, median %.3f ¢", 100 * heard, m);
}

TEST(aSixStringBassesLowBIsFoundApartFromTheSeriesOfTheG2ItsRangeHolds) {
    // A 6-string bass (B0 E1 A1 D2 G2 C3) with B0 28 ¢ sharp (31.37 Hz) and G2 28 ¢ flat (96.43 Hz, 3.07
    // times B0): a candidate of B0's range (32.1 Hz) has its 3rd, 6th, 9th… partials on G2's series, and
    // the long frames' search from it found none of B0's own; nothing of B0 was heard, and E1 only on a
    // quarter of the hops. Searched once more apart from G2's whole series (StringPartials.cpp:
    // kOthersPartialsOutOfTheSum, the whole series), B0 is heard from 0.75 s, on 46 % of the hops from
    // 1.0 s (the others lost to the short frames), its worst reading 0.04 ¢ off; E1 on 84 % (without: 0
    // and 24 %).
    const std::vector<double> bass6 = tuningOf({23, 28, 33, 38, 43, 48});
    const auto strings = drawnStrumOf(bass6, /* cents */ {28.0, -28.4, 7.2, 11.2, -28.2, 7.8},
                                      /* B */ {1.95e-4, 1.54e-4, 1.62e-4, 7.61e-5, 5.41e-5, 1.29e-4},
                                      /* pluck position */ {0.147, 0.133, 0.241, 0.275, 0.161, 0.148},
                                      /* level (dB) */ {2.48, 1.73, -2.12, 2.80, 1.20, -1.01},
                                      /* start (s) */ {0, 0.0067, 0.0128, 0.0190, 0.0232, 0.0296});
    auto hops = analyse(bass6, strums::strum(strings, kFs, 2.5, 0.0015));
    const double b0 = heardShare(hops, 0, 1.0), worst = maxAbsCents(hops, 0, strings[0].frequency, 1.0);
    CHECK(b0 >= 0.35 && worst <= 0.5, "B0: heard on %.0f %% of the hops from 1.0 s, worst %.3f ¢", 100 * b0, worst);
    const double e1 = heardShare(hops, 1, 1.0);
    CHECK(e1 >= 0.7, "E1: heard on %.0f %% of the hops from 1.0 s", 100 * e1);
}

TEST(aSixStringBassesMutedC3IsNotReadOnTheLowBsFourthPartialOnceTheLongFramesHearTheB) {
    // strums.py's muted other-tunings strum bass6 201: D2 and C3 muted, B0 17 ¢ flat (30.56 Hz). The short
    // frames cannot ground B0 beside E1 (10 Hz apart, inside one main lobe of the 0.25 s frames), so B0's
    // partials were nobody's there, and the muted C3 read B0's 4th and 8th (122.2 Hz, −121 ¢) as its own
    // 1st and 2nd until the end. The long frames hear B0, and once they have for kSeedAfterSeconds they
    // claim its partials in the short frames too (StringPartials::standBy): C3 is reported up to 0.73 s,
    // not after. Without the stand-in: on 28.8 % of all hops, on 26 % from 0.8 s.
    const std::vector<double> bass6 = tuningOf({23, 28, 33, 38, 43, 48});
    auto strings = drawnStrumOf(bass6, /* cents */ {-17.42, -28.56, -19.51, -22.24, 12.87, -14.55},
                                /* B */ {8.511e-05, 1.778e-4, 6.588e-05, 0, 1.475e-4, 0},
                                /* pluck position */ {0.1214, 0.112, 0.2519, 0, 0.1412, 0},
                                /* level (dB) */ {2.642, -2.181, 0.467, 0, -1.747, 0},
                                /* start (s) */ {0, 0.001159, 0.003774, 0.004327, 0.00446, 0.005708});
    strings[3].amplitude = strings[5].amplitude = 0;
    auto hops = analyse(bass6, strums::strum(strings, kFs, 2.5, 0.0015));
    const double c3 = heardShare(hops, 5, 0.8);
    CHECK(c3 == 0, "the muted C3 was heard on %.1f %% of the hops from 0.8 s", 100 * c3);
}

TEST(aSevenStringGuitarsMutedE4IsNotHeardOnAPeakB3sEnvelopeExplains) {
    // strums.py's muted other-tunings strum guitar7 205: A2 and E4 muted, B3 14 ¢ sharp. Its 4th partial,
    // 22 dB, is where the muted E4's 3rd would be. B3's envelope there (from its 5th, 10 dB) is 8 dB under
    // it and E4's (from a weak 2nd partial nobody claims, 2 dB) 27 dB under, so each string took the peak
    // as its own by kOwnOverEnvelope, and E4, heard on it and on that 2nd, was reported on 48 % of the hops
    // from 1.07 s. The peak now goes to the string whose envelope explains it (StringClaims.cpp:
    // kRivalEnvelopeRatio): E4 on none (on 43 % at a ratio of 16).
    const std::vector<double> guitar7 = tuningOf({35, 40, 45, 50, 55, 59, 64});
    auto strings = drawnStrumOf(guitar7, /* cents */ {-29.04, -4.444, 20.35, 16.76, -17.2, 14.25, -16.71},
                                /* B */ {8.055e-05, 1.953e-4, 0, 1.639e-4, 1.444e-4, 1.077e-4, 0},
                                /* pluck position */ {0.1763, 0.2725, 0, 0.2188, 0.1858, 0.1768, 0},
                                /* level (dB) */ {1.852, 1.93, 0, -1.279, -2.027, 2.324, 0},
                                /* start (s) */ {0, 0.000665, 0.002745, 0.002789, 0.005806, 0.009343, 0.0113});
    strings[2].amplitude = strings[6].amplitude = 0;
    auto hops = analyse(guitar7, strums::strum(strings, kFs, 2.5, 0.0015));
    checkMutedNotHeard(hops, 6, "E4");
    checkHeardAndOnPitch(hops, strings, 5, "B3", 0.5, 0.99);
}

TEST(anOpenEsE3WhoseShortFramePartialsAreAllSharedIsReportedOnTheLongFrames) {
    // Open E with E2 14 ¢ flat and E3 29 ¢ sharp: E3's partials lie 4, 8, 12… Hz from E2's even ones,
    // its 1st and 2nd inside the 0.25 s frames' collision distance (12 Hz), its 3rd at its edge, so every
    // partial the short frames take as E3's own is shared with E2; whether they hear E3 flickers from hop
    // to hop, and the long frames, which part its partials from the 2nd up and read it to a few hundredths
    // of a cent, could never establish it (kEstablishedSeconds). Such hops now count as ones where the
    // short frames have no reading of their own.
    const std::vector<double> openE = tuningOf({40, 47, 52, 56, 59, 64});
    const auto strings = drawnStrumOf(openE, /* cents */ {-13.62, -11.33, 28.75, 25.95, 2.885, 13.05},
                                      /* B */ {9.316e-5, 9.466e-5, 1.502e-4, 1.171e-4, 1.801e-4, 1.72e-4},
                                      /* pluck position */ {0.1084, 0.1222, 0.2719, 0.2577, 0.2172, 0.1081},
                                      /* level (dB) */ {0.648, 2.935, -1.823, -2.725, -0.6068, -2.443},
                                      /* start (s) */ {0, 0.006768, 0.01065, 0.01794, 0.02083, 0.02212});
    auto hops = analyse(openE, strums::strum(strings, kFs, 2.5, 0.0015));
    const double heard = heardShare(hops, 2, 1.0), worst = maxAbsCents(hops, 2, strings[2].frequency, 1.0);
    // Measured: heard on 67 % of the hops from 1.0 s, worst 1.5 ¢ (without the rule: 41 %).
    CHECK(heard >= 0.55 && worst <= 2, "E3: heard on %.0f %% of the hops from 1.0 s, worst %.3f ¢", 100 * heard, worst);
}

TEST(anOpenEsE3BesideTheLowEsOctaveIsHeardThroughItsSharedFirstPartial) {
    // Open E with E2 16.0 ¢ flat and E3 13.6 ¢ flat (strums.py's open E strum 9): E3's partials lie within
    // 2.4 ¢ of E2's 2nd, 4th, 6th…, one peak each in either frame length, apart only from about its 6th,
    // where inharmonicity parts them (E2's B 1.9e-4, E3's 7.2e-5) and the pluck leaves them near the noise.
    // Its 1st partial, claimed by E2's 2nd, stands over what E2 puts there; a string whose only own partial
    // was its 1st was heard only with that partial unclaimed (StringPresence: kLoneFirstHiddenPartials,
    // stop 32). Measured: heard on 100 % of the hops from 0.5 s, median +0.18 ¢ (without: 42 %, its
    // readings mostly the wrong ones below). What is left: from 0.73 to 1.5 s (81 of 201 hops) the long
    // frames read it 8.8 ¢ flat on its 5th and 7th partials and a stray 9th, which is B2's 12th: B2's fit
    // there, from its 1st, 3rd and 5th (its even partials are E3's and B3's too), has B = 1e-5 against
    // 1.3e-4 and puts its 12th 13 Hz off, so B2 does not claim the peak.
    const std::vector<double> openE = tuningOf({40, 47, 52, 56, 59, 64});
    const auto strings = drawnStrumOf(openE, /* cents */ {-16.02, 4.815, -13.58, 24.35, 3.825, -2.423},
                                      /* B */ {1.932e-4, 1.316e-4, 7.217e-5, 1.755e-4, 8.426e-5, 1.071e-4},
                                      /* pluck position */ {0.2762, 0.2948, 0.2786, 0.2787, 0.2925, 0.1421},
                                      /* level (dB) */ {-1.089, -1.58, 0.8004, 0.8282, -2.278, -2.381},
                                      /* start (s) */ {0, 0.002665, 0.004905, 0.01216, 0.01971, 0.02651});
    auto hops = analyse(openE, strums::strum(strings, kFs, 2.5, 0.0015));
    double heard = 0;
    const double m = medianCents(hops, 2, strings[2].frequency, 0.5, &heard);
    CHECK(heard >= 0.9 && std::abs(m) <= 0.5, "E3: heard on %.0f %% of the hops from 0.5 s, median %.3f ¢", 100 * heard, m);
    checkHeardAndOnPitch(hops, strings, 0, "E2", 0.5, 0.99);
}

TEST(anOpenEsE3ThreeCentsOverTheLowEsOctaveIsHeard) {
    // Open E with E3 2.8 ¢ over E2's octave (E2 +16.2 ¢, E3 +19.0 ¢, 0.3 Hz apart): E3's 1st partial is one
    // peak with E2's 2nd, over 3× (kLoneFirstOverClaimants) what E2's envelope puts there but not 4×, and
    // read there, within the 2.4 ¢ between E3 and E2's 2nd. Measured: heard on 95 % of the hops from 0.5 s,
    // median −0.69 ¢, worst 0.76 ¢; 21 % at 4×.
    const std::vector<double> openE = tuningOf({40, 47, 52, 56, 59, 64});
    const auto strings = drawnStrumOf(openE, /* cents */ {16.2, 23.73, 19.02, -11.6, -15.84, -9.069},
                                      /* B */ {1.56e-4, 8.211e-5, 5.529e-5, 9.565e-5, 1.72e-4, 1.519e-4},
                                      /* pluck position */ {0.2618, 0.1654, 0.2601, 0.1455, 0.1905, 0.1854},
                                      /* level (dB) */ {2.413, 2.257, -1.526, -1.176, -1.923, 0.9906},
                                      /* start (s) */ {0, 0.001686, 0.008744, 0.01242, 0.01276, 0.02072});
    auto hops = analyse(openE, strums::strum(strings, kFs, 2.5, 0.0015));
    double heard = 0;
    const double m = medianCents(hops, 2, strings[2].frequency, 0.5, &heard);
    const double worst = maxAbsCents(hops, 2, strings[2].frequency, 0.5);
    CHECK(heard >= 0.85 && std::abs(m) <= 1 && worst <= 1.5, "E3: heard on %.0f %% of the hops from 0.5 s, median %.3f ¢, worst %.3f ¢",
          100 * heard, m, worst);
    checkHeardAndOnPitch(hops, strings, 0, "E2", 0.5, 0.99);
}

TEST(aMutedOpenDsD4IsNotHeardOnWhatD2AndD3PutAtItsFirstPartial) {
    // Open D, D4 muted: where its 1st partial would be, D2's 4th and D3's 2nd are one peak (D2 3.9 ¢ flat,
    // D3 2.5 ¢ sharp). The peak stands over 2× what either string's envelope puts there, not over 3×
    // (StringClaims.cpp: kLoneFirstOverClaimants): the muted D4 was heard on 20 % of the hops at 2×.
    const std::vector<double> openD = tuningOf({38, 45, 50, 54, 57, 62});
    auto strings = drawnStrumOf(openD, /* cents */ {-3.942, 17.68, 2.493, -25.75, -25.56, 26.41},
                                /* B */ {6.514e-5, 5.493e-5, 1.312e-4, 1.684e-4, 1.692e-4, 8.89e-5},
                                /* pluck position */ {0.2928, 0.2839, 0.1174, 0.2913, 0.2381, 0.2844},
                                /* level (dB) */ {0.3591, -1.435, 2.529, 2.926, -0.06058, -1.171},
                                /* start (s) */ {0, 0.005515, 0.006553, 0.009888, 0.009916, 0.01384});
    strings[5].amplitude = 0;
    auto hops = analyse(openD, strums::strum(strings, kFs, 2.5, 0.0015));
    checkMutedNotHeard(hops, 5, "D4");
    checkHeardAndOnPitch(hops, strings, 0, "D2", 0.5, 0.99);
}

TEST(aMutedDropCsD4IsNotHeardOnTheGTwosThirdPartial) {
    // Drop C with D4 muted, G2 28 ¢ sharp: where D4's 1st partial would be, 3 × G2 (2 ¢ over D4 at their
    // targets) puts G2's 3rd, 6.7 Hz over the D4's target. That peak stands over 2× what G2's envelope,
    // from neighbours near a comb notch of its pluck, puts there, not over 3× (StringClaims.cpp:
    // kLoneFirstOverClaimants): measured, the muted D4 heard on 15.6 % of the hops at 2×, on none at 3×.
    const std::vector<double> dropC = tuningOf({36, 43, 48, 53, 57, 62});
    auto strings = drawnStrumOf(dropC, /* cents */ {1.205, 28.2, 15.29, -22.43, -8.116, -23.27},
                                /* B */ {1.727e-4, 1.6e-4, 7.889e-5, 1.93e-4, 1.278e-4, 1.884e-4},
                                /* pluck position */ {0.2121, 0.2079, 0.1546, 0.2936, 0.2833, 0.1506},
                                /* level (dB) */ {-1.217, -2.941, -1.957, -1.742, 0.3331, -1.795},
                                /* start (s) */ {0, 0.00373, 0.01109, 0.01629, 0.01953, 0.0221});
    strings[5].amplitude = 0;
    auto hops = analyse(dropC, strums::strum(strings, kFs, 2.5, 0.0015));
    checkMutedNotHeard(hops, 5, "D4");
    checkHeardAndOnPitch(hops, strings, 1, "G2", 0.5, 0.99);
}

TEST(aDropDsD3IsHeardWhenTheLowDIsMuted) {
    // Drop D with the low D muted (strums_fresh.py's muted other-tunings draw 402): the muted D2 finds no
    // 1st partial, but finds D3's 1st as its 2nd, D3's 2nd as its 4th, and so on. Grounded by that "2nd"
    // partial, it claimed every partial of D3, and D3 was never heard; now a string's 2nd partial lying on
    // another string's 1st does not ground it (StringPartials::grounded). Measured: D3 heard on 100 % of
    // the hops from 0.5 s, median 0.000 ¢, worst 0.003 ¢ (without the rule: on none).
    const std::vector<double> dropD = tuningOf({38, 45, 50, 55, 59, 64});
    auto strings = drawnStrumOf(dropD, /* cents */ {14.39, 24.71, -14.9, -2.59, 5.687, 16.32},
                                /* B */ {0, 8.87e-05, 1.407e-4, 5.161e-05, 1.745e-4, 1.978e-4},
                                /* pluck position */ {0, 0.2139, 0.2939, 0.2492, 0.1624, 0.2761},
                                /* level (dB) */ {0, 2.388, -0.221, 1.663, 1.679, 1.535},
                                /* start (s) */ {0, 0.0003321, 0.001235, 0.002189, 0.002668, 0.003426});
    strings[0].amplitude = 0;
    auto hops = analyse(dropD, strums::strum(strings, kFs, 2.5, 0.0015));
    checkMutedNotHeard(hops, 0, "D2");
    checkHeardAndOnPitch(hops, strings, 2, "D3", 0.5, 0.99);
}

TEST(aFiveStringBassesLowBWhoseFirstPartialOnlyTheLongFramesPartIsReportedFromTheirFirstReading) {
    // strums_fresh.py's other-tunings strum bass5 60 (in neither strums.py part): B0 25.5 ¢ sharp, 10.8 Hz
    // under E1, inside one main lobe of the 0.25 s frames, which never hear it. The long frames part its
    // 1st partial from every other string's series, and the hops where they do now count toward
    // establishing it from the strum's attack on, not only once their frame pair is past it
    // (PolyAnalyser.cpp: kEstablishedSeconds): B0 is first reported at 0.76 s, when the long frames'
    // readings are first taken (kLongAfterAttackSeconds), and heard on 92 % of the hops from 0.6 s.
    // Counted only past the attack: from 1.04 s, on 77 %.
    const std::vector<double> bass5 = tuningOf({23, 28, 33, 38, 43});
    const auto strings = drawnStrumOf(bass5, /* cents */ {25.5, -8.896, -11.1, 11.09, -28.67},
                                      /* B */ {6.629e-05, 1.898e-4, 1.472e-4, 7.322e-05, 1.915e-4},
                                      /* pluck position */ {0.2238, 0.2697, 0.1041, 0.2701, 0.2114},
                                      /* level (dB) */ {-1.742, 2.187, -0.04945, -2.575, 0.7937},
                                      /* start (s) */ {0, 0.005713, 0.01336, 0.01944, 0.03116});
    auto hops = analyse(bass5, strums::strum(strings, kFs, 2.5, 0.0015));
    double first = INFINITY;
    for (const Hop &h : hops)
        if (h.strings[0].heard) {
            first = h.time;
            break;
        }
    CHECK(first <= 0.85, "B0 first reported at %.2f s", first);
    checkHeardAndOnPitch(hops, strings, 0, "B0", 0.6, 0.88);
}
