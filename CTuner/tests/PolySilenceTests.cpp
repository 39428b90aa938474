// PolySilenceTests.cpp — strings of a tuning that nobody plays stay silent beside one that sounds: a
// silent string whose even partials are another note's (StringPresence: kOddUnderStrongestDb) or whose
// every m-th are (kNonMultipleUnderStrongestDb), one faint over the noise (kOwnOverFloorDb), a string
// far under the loudest (kUnderStrongestDb), one without its 1st partial (PolyAnalyser:
// kResumeSeconds) or with a peak off its series in its place (StringClaims.cpp: kFirstOnSeriesCents), one
// whose 1st partial is its only own one, far under the partials it hides (kLoneFirstUnderStrongestDb).
// Each threshold is bracketed from both sides: the decibel ones fail at 35 and at 45 dB, kResumeSeconds
// at 0.15 and at 0.3 s, kFirstOnSeriesCents at 6 and at 16 ¢.
#include "Check.hpp"
#include "PolyHops.hpp"
#include "Strums.hpp"

#include <cmath>
#include <vector>

using namespace polyhops;

namespace {
/// A cello's open strings, C2 G2 D3 A3 (A4 = 440 Hz).
const std::vector<double> kCello = {65.406, 97.999, 146.832, 220.0};

/// A quiet G2 whose partials other than every m-th stand `underDb` under a louder note m× higher, whose
/// partials fall exactly on the G2's m-th, 2m-th… (m² × the inharmonicity, f1 set so).
std::vector<strums::PluckedString> gTwoUnderANoteOnItsEvery(int m, double underDb) {
    strums::PluckedString low, high;
    low.frequency = kCello[1];
    low.amplitude = 0.15 * std::pow(10.0, -underDb / 20);
    high.frequency = m * kCello[1] * std::sqrt(1 + m * m * low.B) / std::sqrt(1 + low.B);
    high.B = m * m * low.B;
    return {low, high};
}

/// A G2 whose odd partials stand `underDb` under its even ones: a louder string an octave up on them.
std::vector<strums::PluckedString> gTwoWithOddPartialsUnder(double underDb) { return gTwoUnderANoteOnItsEvery(2, underDb); }

/// A G2 whose partials other than every 3rd stand `underDb` under a louder note 3× higher (D4, as a
/// fretted note beside the open G string).
std::vector<strums::PluckedString> gTwoUnderANoteOnItsEveryThird(double underDb) { return gTwoUnderANoteOnItsEvery(3, underDb); }
} // namespace

TEST(aStringWhoseEveryThirdPartialIsALouderNotesIsHeardUntilTheOthersFade) {
    // A G2 20 dB under a D4 on its 3rd, 6th, 9th partials is a G2 beside the D4 and is read; 30 dB under,
    // its 1st, 2nd, 4th, 5th are what a silent G2 finds in noise beside a note 3× higher
    // (kNonMultipleUnderStrongestDb at 25 dB; fails without the rule and at 35, and at 15).
    auto hops = analyse(kCello, strums::strum(gTwoUnderANoteOnItsEveryThird(20), kFs, 1.5, 0.0001));
    double heard = 0;
    const double m = medianCents(hops, 1, kCello[1], 0.4, &heard);
    CHECK(heard > 0.9 && std::abs(m) <= 0.5, "20 dB under: G2 median %.3f ¢, heard on %.0f %%", m, 100 * heard);
    hops = analyse(kCello, strums::strum(gTwoUnderANoteOnItsEveryThird(30), kFs, 1.5, 0.0001));
    CHECK(heardShare(hops, 1, 0.3) <= 0.01, "30 dB under: G2 heard on %.1f %% of the hops", 100 * heardShare(hops, 1, 0.3));
}

TEST(aStringFaintOverTheNoiseDoesNotStartAndOneClearOfItDoes) {
    // A G2 alone in white noise (RMS 1e-4, the gate at −90 dBFS so that only kOwnOverFloorDb decides
    // whether it starts). Plucked at 4e-5, its strongest partial stands under 32 dB over the spectrum's
    // median magnitude, as the room and bow noise peaks a silent string reads on real recordings do: it
    // does not start (heard on 100 % of the hops without the rule and at 26 dB). At 6e-5, 3.5 dB louder,
    // it starts and is read (not heard at 38 dB).
    auto pluckedAt = [](double amplitude) {
        strums::PluckedString g;
        g.frequency = kCello[1];
        g.amplitude = amplitude;
        return analyse(kCello, strums::strum({g}, kFs, 1.5, 0.0001), -90);
    };
    auto hops = pluckedAt(4e-5);
    CHECK(heardShare(hops, 1, 0.3) <= 0.05, "G2 at 4e-5: heard on %.0f %% of the hops", 100 * heardShare(hops, 1, 0.3));
    hops = pluckedAt(6e-5);
    double heard = 0;
    const double m = medianCents(hops, 1, kCello[1], 0.3, &heard);
    CHECK(heard >= 0.9 && std::abs(m) <= 0.5, "G2 at 6e-5: median %.3f ¢, heard on %.0f %% of the hops", m, 100 * heard);
}

TEST(aSilentStringWhoseEvenPartialsAreAnotherNotesIsNotHeard) {
    // A plucked C2 on a cello: G2's 2nd, 4th, 6th partials are C2's 3rd, 6th, 9th, and G2's odd ones
    // (98, 294, 490 Hz) hold no partial of C2's, only noise. Before the odd-partial rule G2 was read on
    // 11–18 % of the hops here.
    strums::PluckedString c2;
    c2.frequency = kCello[0];
    auto hops = analyse(kCello, strums::strum({c2}, kFs, 2.0, 0.0005));
    double heard = 0;
    const double m = medianCents(hops, 0, c2.frequency, 0.4, &heard);
    CHECK(heard > 0.95 && std::abs(m) <= 0.5, "C2: median %.3f ¢, heard on %.0f %% of the hops", m, 100 * heard);
    for (std::size_t i = 1; i < kCello.size(); ++i)
        CHECK(heardShare(hops, i, 0.1) <= 0.01, "silent string %zu heard on %.1f %% of the hops", i + 1,
              100 * heardShare(hops, i, 0.1));
}

TEST(aStringWhoseOddPartialsAreFaintIsHeardUntilTheyAreNoise) {
    // A G2 whose odd partials stand 20 or 36 dB under its even ones (a weak fundamental, a weak 3rd) is
    // still a G2 and is read; at 44 dB under they are what a silent string finds in noise, and G2 is not
    // heard. Measured edge with kOddUnderStrongestDb at 40: heard at 38 dB under, not at 40. The rule at
    // 35 dB loses the 36 dB G2; at 45 dB it reads the 44 dB one.
    for (double under : {20.0, 36.0}) {
        auto hops = analyse(kCello, strums::strum(gTwoWithOddPartialsUnder(under), kFs, 1.5, 0.0001));
        double heard = 0;
        const double m = medianCents(hops, 1, kCello[1], 0.4, &heard);
        CHECK(heard > 0.9 && std::abs(m) <= 0.5, "odd partials %.0f dB under: G2 median %.3f ¢, heard on %.0f %%", under,
              m, 100 * heard);
    }
    auto hops = analyse(kCello, strums::strum(gTwoWithOddPartialsUnder(44), kFs, 1.5, 0.0001));
    CHECK(heardShare(hops, 1, 0.3) <= 0.01, "odd partials 44 dB under: G2 heard on %.1f %% of the hops",
          100 * heardShare(hops, 1, 0.3));
}

/// E2 plucked loud (0.9) and a G3 ringing `underDb` under it from the start, as a string nobody played
/// rings in sympathy; G3 is detuned +3 ¢. Their partials do not meet under 1 kHz, so only the level
/// decides whether G3 is heard.
static void gThreeRingingUnderE2(double underDb, double *heard, double *median) {
    const std::vector<double> targets = strums::standardTuning();
    auto strings = strums::detuned(targets, {0, kNaN, kNaN, 3, kNaN, kNaN}, 0);
    strings[0].amplitude = 0.9;
    strings[3].amplitude = 0.9 * std::pow(10.0, -underDb / 20);
    auto hops = analyse(targets, strums::strum(strings, kFs, 1.6, 0.00002));
    *median = medianCents(hops, 3, strings[3].frequency, 0.3, heard);
}

TEST(aStringRingingFarUnderTheLoudestIsNotHeardAndOneNearerIs) {
    // kUnderStrongestDb from both sides. Measured edge at 40: G3 heard at 40 dB under E2, not at 42.
    // 36 dB under is read (the rule at 35 loses it); 44 dB under is not (the rule at 45 reads it on
    // 98 % of the hops, without the rule it is read up to 50 dB under).
    double heard = 0, m = 0;
    gThreeRingingUnderE2(36, &heard, &m);
    CHECK(heard > 0.9 && std::abs(m) <= 0.5, "G3 36 dB under E2: median %.3f ¢, heard on %.0f %%", m, 100 * heard);
    gThreeRingingUnderE2(44, &heard, &m);
    CHECK(heard <= 0.01, "G3 44 dB under E2: heard on %.1f %% of the hops", 100 * heard);
}

TEST(aStringThirtyFourDbUnderTheLoudestIsStillHeard) {
    // G3 rings alone; A2 is struck 0.5 s later and 34 dB louder (their partials do not meet under
    // 1 kHz, so no other rule decides G3, and G3 is followed from its reading before). G3 is still
    // heard and read: with kUnderStrongestDb at 30 it was not. (From about 40 dB under, this G3 is lost
    // by the search whatever the rule, tried at 40–52 dB; the test above brackets the other side.)
    const std::vector<double> targets = strums::standardTuning();
    auto strings = strums::detuned(targets, {kNaN, -4, kNaN, 5, kNaN, kNaN});
    strings[1].start = 0.5;
    strings[1].amplitude = 0.9;
    strings[3].amplitude = 0.9 * std::pow(10.0, -34.0 / 20);
    auto hops = analyse(targets, strums::strum(strings, kFs, 1.6, 0.00002));
    double heard = 0;
    const double m = medianCents(hops, 3, strings[3].frequency, 0.9, &heard);
    CHECK(heard > 0.9 && std::abs(m) <= 0.5, "G3 34 dB under A2: median %.3f ¢, heard on %.0f %%", m, 100 * heard);
}

namespace {
/// A cello's C2 (+3 ¢) plucked at the start, ringing for `seconds`, in white noise of RMS 5e-4.
std::vector<float> cTwoPlucked(double seconds) {
    strums::PluckedString c2;
    c2.frequency = kCello[0] * std::exp2(3 / 1200.0);
    c2.amplitude = 0.3;
    return strums::strum({c2}, kFs, seconds, 0.0005);
}

/// Cello tuning. C2 (+3 ¢) is plucked at the start and rings; A3 (+4 ¢, partials 1/k, k = 1…8) sounds
/// with it until 0.8 s. With `gap` 0 only A3's 1st partial stops there. Else all of A3 fades out over
/// 20 ms, and `gap` seconds later fades back in over 20 ms without its 1st partial; with `neverFirst`,
/// A3 never has a 1st partial at all. The share of the hops from 0.3 s after A3's return on which A3 is
/// heard.
double aThreeHeardAfterItsReturn(double gap, bool neverFirst = false) {
    const double t1 = 0.8, t2 = t1 + gap, ramp = 0.02, a3 = kCello[3] * std::exp2(4 / 1200.0);
    std::vector<float> x = cTwoPlucked(2.5);
    for (std::size_t i = 0; i < x.size(); ++i) {
        const double t = double(i) / kFs;
        double g = 1;
        if (gap > 0 && t >= t1 - ramp && t < t2 + ramp)
            g = t < t1 ? 0.5 + 0.5 * std::cos(ctuner::kPi * (t - (t1 - ramp)) / ramp)
                : t < t2 ? 0 : 0.5 - 0.5 * std::cos(ctuner::kPi * (t - t2) / ramp);
        for (int k = neverFirst || t >= t1 ? 2 : 1; k <= 8; ++k)
            x[i] += float(g * 0.05 / k * std::sin(2 * ctuner::kPi * k * a3 * t + k));
    }
    return heardShare(analyse(kCello, x), 3, t2 + 0.3);
}
} // namespace

namespace {
/// Cello tuning. C2 (+3 ¢) plucked; A3's 2nd…8th partials (+4 ¢, 1/k) sound with it throughout, and in
/// place of A3's 1st a peak `offCents` from it, 14 dB under A3's 2nd. The share of the hops from 0.5 s on
/// which A3 is heard.
double aThreeHeardWithAFirstPartialOff(double offCents) {
    const double a3 = kCello[3] * std::exp2(4 / 1200.0);
    std::vector<float> x = cTwoPlucked(2.0);
    for (std::size_t i = 0; i < x.size(); ++i) {
        const double t = double(i) / kFs;
        for (int k = 2; k <= 8; ++k) x[i] += float(0.05 / k * std::sin(2 * ctuner::kPi * k * a3 * t + k));
        x[i] += float(0.005 * std::sin(2 * ctuner::kPi * a3 * std::exp2(offCents / 1200.0) * t));
    }
    return heardShare(analyse(kCello, x), 3, 0.5);
}
} // namespace

TEST(aStringWhoseFirstPartialLiesOffItsSeriesIsNotStarted) {
    // A peak 15 ¢ under where A3's 2nd…8th partials put its 1st, inside the search's first tolerance:
    // what a bowed C2's silent G2 took for its 1st partial among the bow's noise peaks (StringClaims.cpp:
    // kFirstOnSeriesCents). Not heard; heard throughout without the rule and at 16 ¢.
    const double heard = aThreeHeardWithAFirstPartialOff(-15);
    CHECK(heard <= 0.01, "A3 with a peak 15 ¢ off its 1st partial heard on %.0f %% of the hops", 100 * heard);
}

TEST(aStringWhoseFirstPartialLiesEightCentsOffItsSeriesStarts) {
    // The other side: 8 ¢ off, as the 1st partials of 1 % of strums.py's sounding strings lie from their
    // fits when they start. Heard; not heard at kFirstOnSeriesCents 6.
    const double heard = aThreeHeardWithAFirstPartialOff(-8);
    CHECK(heard > 0.95, "A3 with its 1st partial 8 ¢ off heard on %.0f %% of the hops", 100 * heard);
}

TEST(aSilentStringIsNotHeardOnPartialsAboveAFirstItLacks) {
    // A3's 2nd…8th partials beside a ringing C2, never a 1st: what a silent string finds when another
    // note's partials and noise land on its series above the 1st (a cello's silent A3 reads a bowed
    // C2's 7th and 14th as its 2nd and 4th). Not heard (StringPartials::confirm); heard throughout
    // without it.
    const double heard = aThreeHeardAfterItsReturn(0, true);
    CHECK(heard <= 0.01, "A3 without a 1st partial heard on %.0f %% of the hops", 100 * heard);
}

TEST(aStringBackWithinAFrameIsHeardWithoutItsFirstPartialAndNotLater) {
    // kResumeSeconds (0.25 s) from both sides. A3 is followed while its 1st partial stops (gap 0); back
    // 0.25 s after it faded (not reported for the 20 hops before it is heard again) it is heard without
    // its 1st partial; back 0.35 s after (30 hops) it is not. Passes for 0.20–0.29 s: at 0.15 s the
    // first check fails, at 0.3 and 0.35 s the second.
    for (double gap : {0.0, 0.25}) {
        const double heard = aThreeHeardAfterItsReturn(gap);
        CHECK(heard > 0.95, "A3 back %.2f s after it faded, without its 1st partial: heard on %.0f %%", gap, 100 * heard);
    }
    const double heard = aThreeHeardAfterItsReturn(0.35);
    CHECK(heard <= 0.01, "A3 back 0.35 s after it faded, without its 1st partial: heard on %.0f %%", 100 * heard);
}

TEST(aStringWhoseFirstPartialIsHiddenInAnothersStillStarts) {
    // The other side of StringPartials::confirm: a quiet B3 35 ¢ flat beside a loud E2, B3's 1st partial
    // 1.8 % under E2's 3rd, inside its peak, so the search does not find it (strums.py tuning seed 204's
    // B3). Its 1st partial lies on another string's partial, so it may start without it: heard on
    // ~70 % of the hops; with no such exception on 45 % (median NaN).
    const std::vector<double> targets = strums::standardTuning();
    auto strings = strums::detuned(targets, {0, kNaN, kNaN, kNaN, -35, kNaN});
    strings[0].amplitude = 0.4;
    strings[4].amplitude = 0.05;
    auto hops = analyse(targets, strums::strum(strings, kFs, 2.0, 0.0005));
    double heard = 0;
    const double m = medianCents(hops, 4, strings[4].frequency, 0.4, &heard);
    CHECK(heard > 0.6 && std::abs(m) <= 0.5, "B3 −35 ¢ beside E2: median %.3f ¢, heard on %.0f %%", m, 100 * heard);
}

TEST(aSilentStringsFundamentalTwelveDbUnderTheNotesPartialsOnItsSeriesIsNotHeard) {
    // A bass tuned in fourths (F1 A#1 D#2 G#2: the weak-fundamental set's tuning for its A#1) with the
    // A#1 plucked and a steady tone at a quarter of the A#1's 3rd partial (F1 less 2 ¢): F1's 1st partial
    // is its only own one and clean, its 4th and 8th hidden under the A#1's 3rd and 6th. That set's
    // FluidR3 picked-bass A#1 holds such a peak at F1's fundamental 10–12.6 dB under the partials it
    // hides. With the tone 12 dB under the A#1's 3rd partial F1 is not heard (StringPresence:
    // kLoneFirstUnderStrongestDb); 4 dB under, a tone as strong as a string's 1st partial, it is.
    const std::vector<double> fourths = {43.654, 58.270, 77.782, 103.826};
    auto withTone = [&](double underDb, double *tone) {
        strums::PluckedString aSharp;
        aSharp.frequency = fourths[1];
        auto x = strums::strum({aSharp}, kFs, 2.0, 0.0001);
        // The A#1's 3rd partial, where and how strong (Strums.hpp: 4 · amplitude · sin(3π·pluckAt) / 9).
        *tone = 3 * aSharp.frequency * std::sqrt((1 + 9 * aSharp.B) / (1 + aSharp.B)) / 4;
        const double third = 4 * aSharp.amplitude * std::sin(3 * ctuner::kPi * aSharp.pluckAt) / 9;
        const double a = third * std::pow(10.0, -underDb / 20);
        for (std::size_t i = 0; i < x.size(); ++i) {
            const double t = double(i) / kFs;
            x[i] += float(a * std::exp(-(0.6 + 0.15 * 3) * t) * std::sin(2 * ctuner::kPi * *tone * t));
        }
        return analyse(fourths, x);
    };
    double tone = 0;
    const double heard12 = heardShare(withTone(12, &tone), 0, 0.3);
    double heard = 0;
    const double m = medianCents(withTone(4, &tone), 0, tone, 0.3, &heard);
    // Measured: 0 % at 12 dB (58 % without the bound); at 4 dB 51 %, median −0.005 ¢ (0 % without a
    // lone 1st partial heard at all: StringPresence's kLoneFirstHiddenPartials).
    CHECK(heard12 <= 0.01, "12 dB under: F1 heard on %.0f %% of the hops", 100 * heard12);
    CHECK(heard >= 0.4 && std::abs(m) <= 0.5, "4 dB under: F1 heard on %.0f %% of the hops, median %.3f ¢", 100 * heard, m);
}
