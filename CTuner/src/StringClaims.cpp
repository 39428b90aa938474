// StringClaims.cpp — see StringPartials.hpp: which of a string's partials are its own when another
// string's series lands on them, and whether the string is heard. A partial two strings' series share
// belongs to the one whose spectral envelope cannot explain it (A. Klapuri, "Multiple fundamental
// frequency estimation based on harmonicity and spectral smoothness", IEEE Trans. Speech Audio Process.
// 11(6), 2003); the presence rules are StringPresence's. The search itself: StringPartials.cpp.
#include "StringPartials.hpp"

#include "Arithmetic.hpp"
#include "StringPresence.hpp"

#include <algorithm>
#include <cmath>

namespace ctuner {
namespace {
/// A string heard through its 1st partial alone (StringPresence: kLoneFirstHiddenPartials) needs that
/// partial this many times (9.5 dB) over the envelope of each string whose series claims it (an unclaimed
/// one needs nothing more), not kOwnOverEnvelope's 2×: a muted string took another string's partial for
/// its 1st where that string's envelope, from neighbours in a pluck's comb notches, understated what it
/// puts there (PolyTests: aMutedDropCsD4… and aMutedOpenDsD4…, heard on 16 and 20 % of the hops at 2).
/// Measured with strums.py's tuning part, without a claimed 1st partial / at 2 / 3 / 4 (at 2 and 4 over
/// the claimants' envelopes summed, at 3 per claimant as now): muted other-tunings strums' strings
/// reported 1.23 / 1.48 / 1.24 / 1.24 % of their hops; the other tunings' sounding string-hops not heard
/// 3.48 / 1.87 / 2.02 / 2.51 %; the guitar's 20 dB strums' 1.79 / 0.28 / 0.52 / 1.50 %; damped strings
/// reported 0.47 / 0.58 / 0.55 / 0.47 % (at 2.5 over the sum: 1.25 / 2.00 / 0.42 / 0.53 %). 3: the muted
/// strums' strings reported as at 4, and as without the claimed 1st partial but on one 6-string bass
/// strum (a muted C3 on 94 hops against 90; 2.5 reports it more).
/// Over the claimants' envelopes summed at 3: not heard 2.13 % (other tunings) and 0.86 % (20 dB), muted
/// strings the same, so the sum, which the muted D4 of aMutedOpenDsD4… needed at 2, is not kept. PolyTests
/// bracket it: a drop C's muted D4 (aMutedDropCsD4…) is heard at 2, an open E's E3 near E2's octave
/// (anOpenEsE3ThreeCents…) lost at 4.
constexpr double kLoneFirstOverClaimants = 3.0;
/// A claimed partial is the string's own when its magnitude is this many times (6 dB) what each
/// claimant's envelope predicts there: the claimant's neighbouring partials cannot explain it. Below
/// it the peak is left to the claimant (a plucked string's spectrum has comb notches, so a partial
/// can sit 2–3× above its neighbours' mean without another string; measured on the unit tests'
/// plucked spectra, PolyTests: aMutedHighEIsNotHeardFromTheLowEsPartials).
constexpr double kOwnOverEnvelope = 2.0;
/// A claimed partial the string would keep (kOwnOverEnvelope) is left to the claimant all the same when
/// the claimant found it too and would keep it as well (this string's envelope cannot explain it either),
/// and the claimant's envelope predicts this many times (12 dB) what this string's does there: the peak
/// is the string's whose neighbours explain it, not both strings' (Klapuri's spectral smoothness, decided
/// once for the pair). Kept by both, a peak made a muted string heard: strums.py's muted other-tunings
/// strum guitar7 205 (A2 and E4 muted) reported E4 on 113 hops from 1.07 s, read by the long frames on its
/// 3rd partial (B3's 4th, 22 dB, which B3's envelope, from its 5th at 10 dB, puts at 14 dB and E4's, from
/// a weak unclaimed 2nd, at −5 dB) and that 2nd. Measured with strums.py's tuning part, with the long
/// frames standing in (StringPartials::standBy) at the short frames' collision distance, as first landed,
/// without the rule / at 1 / 2 / 4 / 8 / 16: muted other-
/// tunings strings reported 1.14 / 0.81 / 0.82 / 0.82 / 0.82 / 1.14 % of their hops; the other tunings'
/// sounding string-hops not heard 1.79 / 1.92 / 1.91 / 1.79 / 1.79 / 1.79 % (the 6-string bass's B0 22 / 29
/// / 29 / 22 / 22 / 22 %), p95 0.798 / 0.667 / 0.728 / 0.754 / 0.791 / 0.798 ¢; FluidR3 not heard 3.77 /
/// 4.38 / 3.73 / 3.63 / 3.75 / 3.77 %, p95 5.20 / 8.62 / 4.74 / 4.68 / 4.90 / 5.20 ¢; FluidR3 near in tune
/// not heard 3.10 / 4.04 / 3.16 / 3.04 / 3.09 / 3.10 %; silent strings reported on the real recordings'
/// development half (Benchmarks/poly_real.py) 0.76 / 0.49 / 0.57 / 0.67 / 0.68 / 0.68 %, on the weak-
/// fundamental set's FluidR3 renders 3.66 / 3.57 / 3.60 / 3.61 / 3.61 / 3.61 % (played heard 91.74 % at
/// each). 4: the soundfont figures best, the other tunings' not heard as without the rule, and half the
/// ratio of the two envelopes under that muted E4's peak (about 9: at 8 it is still left to B3, at 16 not).
/// With the stand-in at the long frames' distance, without / at 4: muted strings reported 1.14 / 0.82 %;
/// other tunings not heard 1.92 % both, p95 0.841 / 0.792 ¢; FluidR3 not heard 3.77 / 3.63 %, p95 5.20 /
/// 4.68 ¢; FluidR3 near in tune 3.10 / 3.04 %; silent strings, development half 0.76 / 0.67 %, weak set
/// 3.68 / 3.63 %. Scored once on the holdout (BENCHMARKS.md, "Stop 33"), the rule cost the FluidR3 strums'
/// sounding string-hops 4.26 → 4.80 % and TimGM6mb's and MuseScore's 2.37 → 2.53 %; on fresh draws in
/// neither part it did not (with the stand-in as first landed): FluidR3 (30 strums) 4.10 → 3.97 %, near in
/// tune (20) 3.01 → 2.95 %, MuseScore (10) 4.42 → 4.40 %, TimGM6mb (10) 0.89 → 0.86 %.
/// PolyTests: aSevenStringGuitarsMutedE4IsNotHeardOnAPeakB3sEnvelopeExplains (fails without the rule and at
/// 16);
/// PolyCLITests' aHighEReadOnTheLowEsSeriesByTheShortFramesTakesTheLongFramesReading fails at 1 (E4
/// heard on 13 of its 51 hops after 0.5 s).
constexpr double kRivalEnvelopeRatio = 4.0;
/// A shared partial the string keeps weighs less the more of the claimant's energy may be in it:
/// its fit weight is multiplied by 1 / (1 + (r / kContamination)²), r = the most the claimant may put
/// there (its envelope, or its nearest clean partial below on 1/k when that is more: a pluck's lowest
/// partials fall about as 1/k, sin(kπp)/k² ≈ πp/k) / its magnitude — a partial with 5 % of another string's
/// magnitude in it counts half (E4's 1st under a flat E2's 4th read 1.4 ¢ off when it counted fully;
/// PolyTests: coincidentPartialsDoNotDragEitherString). The most, not the envelope the ownership test
/// uses: that one can come from a partial in a pluck's comb notch and say the claimant puts nearly
/// nothing there, and the shared peak then weighed fully though it is mostly the claimant's (strums.py
/// tuning part, envelope → bound: p95 40 dB 0.972 → 0.895 ¢, 20 dB 1.597 → 1.523 ¢, muted 0.816 →
/// 0.715 ¢; FluidR3 median 0.619 → 0.599 ¢; 20 dB settle 0.375 → 0.330 s).
constexpr double kContamination = 0.05;
/// A partial a string wins from another string's series (claimed, but its own: kOwnOverEnvelope) counts
/// as clean for a string on that series (StringPresence: kSeriesCents) only when it lies at least this
/// many bins of the frame from where the claimant's fit puts the claimant's partial: a peak on the
/// claimant's own frequency is explained by the claimant, whatever its envelope says. A pluck's comb
/// notches make the envelope test unreliable: E2 −5.5 ¢ and A2 plucked at 10–12 % of their length put
/// notches near their 8th–9th partials, and a muted E4 (4 × E2, 3 × A2) won E2's and A2's partials
/// beside them, 0.00–0.15 bins from where E2's fit put them on 97 % of the hops, and was reported on
/// 7–8 more hops of 196 with the series rule than without; at 0.15 and 0.25 on none more (PolyTests:
/// aMutedHighEOnTheLowStringsSeriesWinsNoPartialOnTheirFrequencies…). A sounding B3 or E4 beside E2's
/// or A2's series lies off it: strums.py's tuning part, FluidR3 sounding string-hops not heard 4.55 %
/// with every won partial counted, 4.99 / 5.07 / 5.22 / 5.30 / 6.14 % from 0.1 / 0.15 / 0.2 / 0.25 /
/// 0.5 bins; 0.25, not the 0.15 edge of that muted E4's partials.
constexpr double kWonOffClaimantBins = 0.25;
/// Two strings an octave apart (an open tuning's E2 and E3, or E3 and E4) share every partial of the
/// higher one, and where two partials merge in one peak its frequency lies near the stronger one's. A
/// partial a string keeps (kOwnOverEnvelope) on a peak an octave string's series claims — the claimant's
/// partial number twice this one's, or half — is the claimant's when the peak lies more than this many
/// times nearer where the claimant's fit puts its partial than where this string's reading of the hop
/// before puts its own, and more than kNearerClaimantFloorBins of the frame's resolution off its own: the
/// peak is the claimant's partial, and this string's, if it sounds, is far weaker. Fresh open-E strum
/// (strums_fresh.py's other-tunings seed 61; Tests/Fixtures/strums/synthetic_open_e_strum_61.flac): E3,
/// 3.2 ¢ over E2's 2nd partial, its 2nd 14.7 ¢ under E4's 1st, was read on E4's series up to 15 ¢ off
/// on 51 of its 121 hops from 0.4 to 1.6 s; now on 6 (and not heard on 49). Measured on the fresh draws (other
/// tunings, 128 strums; not heard / p95 / readings over 10 ¢ off): without 0.79 % / 0.764 ¢ / 189; at 2 /
/// 3 / 4, 0.85 / 0.85 / 0.78 %, 0.629 / 0.627 / 0.623 ¢, 39 / 38 / 77. strums.py's tuning part at 3:
/// other tunings not heard 0.88 → 0.87 %, p95 0.539 → 0.480 ¢, readings over 10 ¢ off 52 → 64 (open G's
/// G3 and open D's D3 on the fourth below's series, moved with it), muted strings reported 0.44 → 0.32 %
/// (the banjo's muted D4, D3's octave, 4.07 → 2.12 %); the guitar's standard tuning has no octave pair,
/// and every guitar, FluidR3, weak-set and real-recording figure is the same. Any relation but the
/// octave, tried (BENCHMARKS.md, "Stop 37"): a two-octave one (E2's 4th under E4) raised the fresh FluidR3
/// strums' p95 4.43 → 4.64 ¢, every relation their tuning part's 4.35 → 6.82 ¢. PolyCLITests:
/// anOpenEsE3OnItsOctavesIsNotReadOnTheHighEsSeries (fails without the rule and at 4; no figure tells 2
/// from 3).
constexpr double kNearerClaimantRatio = 3.0;
/// … (a quarter of the frame's resolution: kWonOffClaimantBins' distance). At 0.5 the fresh other-tunings
/// strums' readings over 10 ¢ off are 71 (not heard 0.74 %), and the fixture's E3 reads over 10 ¢ off on
/// 29 hops (the test fails); at 0.1 the fresh figures are those at 0.25.
constexpr double kNearerClaimantFloorBins = 0.25;
/// A string (re)started through its 1st partial (confirm) needs that partial within this many cents of
/// where the fit of its own partials puts it: a peak farther off inside the search's first tolerance
/// (2 %, 34 ¢) is noise or another sound, not the string's fundamental. Measured with --poly on the real
/// recordings' development half (Benchmarks/poly_real.py): a bowed C2's silent G2 took the bow's noise
/// peaks at 97.5–98.2 Hz for its 1st partial, 2–14 ¢ from the fit of the partials it shares with C2, and
/// 43 % of the silent strings' confirmations there had the 1st partial over 10 ¢ off; on strums.py's
/// tuning part the sounding strings' 1st partials lie within 1.0 / 3.7 / 8.6 ¢ of their fits at the
/// 50th / 90th / 99th percentile (709 confirmations), 0.7 % over 10 ¢, and such a string is confirmed
/// on a later hop: the strums' figures are the same at 10 ¢. Silent strings reported on the development
/// half: 1.05 % without the rule, 1.02 / 0.88 / 0.74 / 0.74 % at 20 / 10 / 7 / 5 ¢; at 7 ¢ the played
/// strings start losing hops (the bowed C2 heard on 93 → 92 %, the weak-fundamental set's synthetic
/// plucks 99.97 → 99.88 %; at 10 ¢ 99.92 %), at 5 ¢ the damped strums' sounding strings too (not heard
/// 0.01 → 0.04 %). PolySilenceTests: aStringWhoseFirstPartialLiesOffItsSeriesIsNotStarted (fails
/// without the rule and at 16 ¢) and aStringWhoseFirstPartialLiesEightCentsOffItsSeriesStarts (fails at
/// 6 ¢).
constexpr double kFirstOnSeriesCents = 10.0;
/// A string's 1st partial that another string's series also puts there (claimed) is one peak with that
/// string's partial: a B3 within a few hertz of E2's 3rd, an E4 of E2's 4th or A2's 3rd. Even weighed by
/// kContamination it drags the fit: the claimant's envelope there comes from its lowest partials, where
/// a pluck's comb notches lie, and the 1st partial, often the string's strongest, weighs much in the
/// fit. It is left out of the fit (not of the evidence for hearing the string) when the string has
/// at least this many other own partials: three, the fewest that give f1 and B (fitPartials). strums.py's
/// tuning part, without the rule / with it at 3 / at 4: p95 at 40 dB 0.431 / 0.297 / 0.297 ¢, at 20 dB
/// 0.606 / 0.479 / 0.557 ¢, damped strums 0.352 / 0.244 / 0.273 ¢, muted 0.368 / 0.247 / 0.247 ¢; strum to
/// ±1 ¢ of final at 40 dB 0.335 / 0.310 s, at 20 dB 0.340 / 0.325 s; FluidR3 median 0.482 / 0.479 ¢. No
/// string more or less heard, no reading more over 10 ¢ off; FluidR3's `--announce` names one string fewer
/// right (60 of 65 → 58 of 64). At 2 the synthetic figures are better still (20 dB p95 0.369 ¢) but
/// FluidR3's readings over 10 ¢ off rise 33 → 37 (with two others, f1 comes from the B found before).
/// Kept in the fit but weighed down instead (×0.01 on its weight): the damped strums' p95 0.273 ¢, and
/// with only two others B leans on them: PolyTests' aB3LostInTheNoise… read B3 2.6 ¢ off at worst.
/// PolyTests: aHighEWhoseFirstPartialIsOnePeakWith… (E4 1.02 ¢ off at worst without the rule, and at 12,
/// where E4 has fewer other own partials); no unit test tells 0–3 apart.
constexpr std::size_t kFitWithoutSharedFirst = 3;
/// A partial the string keeps though another string's series claims it (kOwnOverEnvelope) is left out of
/// the fit, and the string fitted again on the rest, when the fit puts it more than this many cents from
/// where the string's series has it and at least three partials remain: that peak is the claimant's
/// partial, or the two strings' partials merged, and drags the reading. A fresh near-in-tune FluidR3 strum
/// (strums_fresh.py's seed 608; Tests/Fixtures/strums/fluidr3_steel_strum_608.flac): B3's 3rd partial is one
/// peak with D3's 5th, 14 ¢ under where B3's series puts it and 8 dB over B3's own, and B3 read 4–8 ¢ flat
/// through most of 1.3–2.1 s; within 3 ¢ of its truth on 80 of its 168 readings from 0.4 to 2.2 s, now 96.
/// Measured at 5 / 6 / 8 / 12 ¢ and without (strums_fresh.py): FluidR3 not heard 3.54 / 3.55 / 3.55 / 3.50 /
/// 3.57 %, p95 4.38 / 4.42 / 4.43 / 4.38 / 4.48 ¢; FluidR3 near in tune p95 4.58 / 4.57 / 4.50 / 4.63 /
/// 4.72 ¢, readings over 10 ¢ off 58 / 53 / 38 / 43 / 39; MuseScore over 10 ¢ off 11 at each, 13 without;
/// other tunings p95 0.862 / 0.865 / 0.880 / 0.880 / 0.881 ¢. At 5 and 6 a string's own partials that
/// inharmonicity or the render's glide put a few cents off the fit are dropped too, and the fit on what is
/// left wanders (seed 608's B3 over 10 ¢ off on 12 readings at 5 against 6). strums.py's tuning part at 8:
/// FluidR3 not heard 3.57 → 3.50 %, p95 4.64 → 4.35 ¢ (strum to ±1 ¢ of final 1.36 → 1.49 s); near in tune
/// identified 87.7 → 89.5 %, not heard 3.04 → 3.08 %, p95 4.16 → 4.19 ¢; other tunings' readings over 10 ¢
/// off 57 → 51; every synthetic, muted and damped figure the same; silent strings on the weak set 3.67 →
/// 3.65 %, on the real development half 0.67 %. PolyCLITests: aSteelB3WhoseThirdPartialIsOnePeakWithTheDsFifth… (fails at 12 and without, on its
/// count within 3 ¢; at 5, on its readings over 10 ¢ off).
constexpr double kSharedOffFitCents = 8.0;
} // namespace


int StringPartials::partialNear(double frequency, double collisionHz) const {
    if (fit_.f1 <= 0) return 0;
    const int k = int(std::lround(frequency / fit_.f1 / stiffness(frequency / fit_.f1, fit_.B)));
    if (k < 1) return 0;
    return std::abs(seriesAt(k, fit_) - frequency) < collisionHz ? k : 0;
}

void StringPartials::markGround(const StringPartials *strings, std::size_t count, double collisionHz, bool attack) {
    secondOnAnothersFirst_ = false;
    if (foundCount_ == 0 || found_[0].k != 2 || attack) return;
    for (std::size_t t = 0; t < count && !secondOnAnothersFirst_; ++t) {
        const StringPartials &o = strings[t];
        secondOnAnothersFirst_ = &o != this && o.foundCount_ > 0 && o.found_[0].k == 1 &&
                                 std::abs(o.found_[0].frequency - found_[0].frequency) < collisionHz;
    }
}

const FoundPartial *StringPartials::foundNear(int k, double frequency, double collisionHz) const {
    for (std::size_t i = 0; i < foundCount_; ++i)
        if (found_[i].k == k && std::abs(found_[i].frequency - frequency) < collisionHz) return &found_[i];
    return nullptr;
}

StringPartials::Claimant StringPartials::claimant(double collisionHz) const {
    if (grounded()) return {this, 1, collisionHz};
    if (standIn_ && standIn_->heard()) return {standIn_, standInScale_, standInCollisionHz_};
    return {nullptr, 0, 0};
}

bool StringPartials::onAnotherString(const StringPartials *strings, std::size_t count, double frequency,
                                     double collisionHz) const {
    for (std::size_t t = 0; t < count; ++t) {
        if (&strings[t] == this) continue;
        const Claimant c = strings[t].claimant(collisionHz);
        if (c.s && c.s->partialNear(frequency, c.collisionHz) > 0) return true;
    }
    return false;
}

void StringPartials::markClaims(const StringPartials *strings, std::size_t count, double collisionHz) {
    for (std::size_t i = 0; i < foundCount_; ++i) {
        FoundPartial &p = found_[i];
        p.claimed = false;
        p.claimed = onAnotherString(strings, count, p.frequency, collisionHz);
    }
}

double StringPartials::envelopeAt(int k) const {
    // Each neighbour n predicts magnitude(n)·(n/k)² at k: a plucked string's spectrum falls as 1/k²
    // (a pluck's triangle; Fletcher & Rossing, "The Physics of Musical Instruments", §2.6). The raw mean of
    // the neighbours, on Synth.Pluck's 1/k spectrum, overestimated E2's 3rd 2×, and a B3 on it
    // lost its fundamental (PolyCLITests: allSixStringsEachReadFromTheirOwnTarget).
    auto predicted = [k](const FoundPartial &p) { return p.magnitude * double(p.k * p.k) / double(k * k); };
    for (int d = 1; d <= 2; ++d) {
        double sum = 0;
        int n = 0;
        for (std::size_t i = 0; i < foundCount_; ++i) {
            const FoundPartial &p = found_[i];
            if (!p.claimed && (p.k == k - d || p.k == k + d)) {
                sum += predicted(p);
                ++n;
            }
        }
        if (n > 0) return sum / n;
    }
    // No clean neighbour: the nearest partial found, claimed or not (a 1st partial has no neighbour
    // below; without this a string whose 2nd partial another string claims could not explain its own
    // fundamental, and a muted string took it: PolyTests, aMutedLowEIsNotHeardThoughItsFourthPartialSounds),
    // but never more than the nearest clean partial below k extrapolated on 1/k. A claimed partial's
    // magnitude is what is in dispute: a B3 0.2 Hz from E2's 3rd is one peak with it, 8–14 dB over what
    // E2 puts there, and when E2's 4th and 5th were not found E2's envelope at its 6th was predicted
    // from that shared 3rd, i.e. from B3's own fundamental; B3's 2nd went to E2 and B3 was heard on 55 %
    // of the hops (PolyTests: aB3OnTheLowEsThirdIsHeardWhenTheLowEsNextPartialsAreMissing, strums.py
    // tuning seed 2). 1/k, not 1/k², because a pluck's lowest partials fall as sin(kπp)/k² ≈ πp/k: the
    // clean partial can be far below, and on 1/k² it understated the claimant, whose partials other
    // strings then kept (aStrumPluckedNearTheBridgeKeepsItsSharedPartialsApart: E2 −0.46 ¢ on 1/k²;
    // on 1/k² and in place of the nearest partial's prediction, PolyCLITests' A2 read 0.6–0.7 ¢ off).
    // Tuning part (strums.py): sounding string-hops not heard at 20 dB 18.2 → 3.9 %, at 40 dB
    // 4.2 → 0.4 %, FluidR3 13.5 → 13.4 %.
    const FoundPartial *nearest = nullptr;
    for (std::size_t i = 0; i < foundCount_; ++i)
        if (found_[i].k != k && (!nearest || std::abs(found_[i].k - k) < std::abs(nearest->k - k))) nearest = &found_[i];
    if (!nearest) return 0;
    const double envelope = predicted(*nearest), bound = cleanBelowOnOneOverK(k);
    return bound > 0 ? std::min(envelope, bound) : envelope;
}

double StringPartials::cleanBelowOnOneOverK(int k) const {
    const FoundPartial *below = nullptr;
    for (std::size_t i = 0; i < foundCount_; ++i)
        if (!found_[i].claimed && found_[i].k < k && (!below || found_[i].k > below->k)) below = &found_[i];
    return below ? below->magnitude * below->k / k : 0;
}

void StringPartials::resolve(const StringPartials *strings, std::size_t count, double collisionHz) {
    std::size_t own = 0, settledOwn = 0;  // settled: not rising (kAttackRise)
    std::size_t clean = 0;  // own partials above the 2nd that no other string's series claims
    std::size_t unclaimed = 0;  // own partials, of any number, that no other string's series claims
    std::size_t cleanLow = 0;  // of them, those up to kCleanStartHighestPartial
    std::size_t won = 0, wonLow = 0;  // own partials above the 2nd won from a claimant (kWonOffClaimantBins)
    bool sharedFirst = false;  // the 1st partial is own but claimed (kFitWithoutSharedFirst)
    bool lowFound = false;  // partial 1 or 2 found, whether own or shared
    bool firstOverClaimants = false;  // the 1st partial is own, kLoneFirstOverClaimants over each claimant
    std::size_t hidden = 0;   // found partials claimed and not own
    std::array<bool, kStringPartials> claimedFitted{};  // fitting_[j]'s partial is claimed (kSharedOffFitCents)
    double oddPeak = 0, anyPeak = 0, ownPeak = 0;  // the largest magnitudes: odd-numbered found, any found, own
    int lowest = kStringPartials + 1, settledLowest = kStringPartials + 1;
    double all = 0, ownOlder = 0;  // all found partials' energy; the own ones' in the older frame
    ownEnergy_ = 0;
    for (std::size_t i = 0; i < foundCount_; ++i) {
        FoundPartial &p = found_[i];
        p.own = true;
        double contamination = 0;  // the largest claimant envelope / magnitude
        double offClaimant = INFINITY;  // how far from the nearest claimant's predicted partial (Hz)
        double claimant = 0;  // the largest claimant envelope (kLoneFirstOverClaimants)
        for (std::size_t t = 0; t < count && p.claimed && p.own; ++t) {
            if (&strings[t] == this) continue;
            const Claimant c = strings[t].claimant(collisionHz);
            if (!c.s) continue;
            const int j = c.s->partialNear(p.frequency, c.collisionHz);
            if (j == 0) continue;
            const double envelope = c.scale * c.s->envelopeAt(j);
            p.own = p.magnitude > kOwnOverEnvelope * envelope;
            // Kept by both? Then it goes to the one whose envelope explains it (kRivalEnvelopeRatio).
            const double mine = p.own ? envelopeAt(p.k) : 0;
            if (p.own && envelope > kRivalEnvelopeRatio * mine) {
                const FoundPartial *theirs = c.s->foundNear(j, p.frequency, c.collisionHz);
                p.own = !(theirs && c.scale * theirs->magnitude > kOwnOverEnvelope * mine);
            }
            claimant = std::max(claimant, envelope);
            const double offTheirs = std::abs(p.frequency - seriesAt(j, c.s->fit_));
            offClaimant = std::min(offClaimant, offTheirs);
            // An octave string's partial, by where the peak lies (kNearerClaimantRatio).
            if (p.own && (j == 2 * p.k || p.k == 2 * j) && previous_.f1 > 0 && c.s->fit_.f1 > 0) {
                const double offMine = std::abs(p.frequency - seriesAt(p.k, previous_));
                p.own = !(offMine > kNearerClaimantRatio * offTheirs &&
                          offMine > kNearerClaimantFloorBins * frameBinHz_);
            }
            const double most = std::max(envelope, c.scale * c.s->cleanBelowOnOneOverK(j));  // see kContamination
            contamination = std::max(contamination, most / p.magnitude);
        }
        p.own = p.own && !p.onSkirt;  // see StringPartials.cpp: kSkirtUnderDb
        const double energy = p.magnitude * p.magnitude;
        all += energy;
        lowFound = lowFound || p.k <= kLowestOwnPartial;
        if (p.k % 2 == 1) oddPeak = std::max(oddPeak, p.magnitude);
        anyPeak = std::max(anyPeak, p.magnitude);
        hidden += !p.own && p.claimed;
        firstOverClaimants = firstOverClaimants || (p.k == 1 && p.own && p.magnitude > kLoneFirstOverClaimants * claimant);
        if (!p.own) continue;
        unclaimed += !p.claimed;
        if (!p.claimed && p.k > kLowestOwnPartial) {
            ++clean;
            if (p.k <= kCleanStartHighestPartial) ++cleanLow;
        } else if (p.k > kLowestOwnPartial && offClaimant >= kWonOffClaimantBins * frameBinHz_) {
            ++won;  // see StringPresence: kSeriesCents, and kWonOffClaimantBins
            if (p.k <= kCleanStartHighestPartial) ++wonLow;
        }
        const double r = contamination / kContamination;
        sharedFirst = sharedFirst || (p.k == 1 && p.claimed);
        claimedFitted[own] = p.claimed;
        fitting_[own++] = {p.k, p.frequency, p.magnitude / std::sqrt(1 + r * r)};  // weight ∝ magnitude²
        ownEnergy_ += energy;
        ownOlder += p.older * p.older;
        ownPeak = std::max(ownPeak, p.magnitude);
        lowest = std::min(lowest, p.k);
        if (!p.rising) {
            ++settledOwn;
            settledLowest = std::min(settledLowest, p.k);
        }
    }
    clarity_ = all > 0 ? ownEnergy_ / all : 0;
    ownFallDb_ = ownOlder > 0 && ownEnergy_ > 0 ? 10 * std::log10(ownEnergy_ / ownOlder) : 0;
    double nonMultiplePeak = anyPeak;  // see PresenceEvidence
    for (int m = 3; m <= kHighestNoteMultiple; ++m) {
        double multiple = 0, other = 0;
        for (std::size_t i = 0; i < foundCount_; ++i) {
            double &peak = found_[i].k % m == 0 ? multiple : other;
            peak = std::max(peak, found_[i].magnitude);
        }
        if (multiple >= anyPeak) nonMultiplePeak = std::min(nonMultiplePeak, other);
    }
    own_ = own;
    unclaimed_ = unclaimed;
    clean_ = clean;
    bool onSeries = false;  // see kSeriesCents
    for (std::size_t t = 0; t < count && !onSeries; ++t) {
        const Claimant c = strings[t].claimant(collisionHz);
        onSeries = &strings[t] != this && c.s && onSeriesOf(fit_.f1, c.s->fit_.f1);
    }
    const PresenceEvidence evidence{own, lowest, lowFound, clean, cleanLow, won, wonLow, onSeries, wasHeard_, oddPeak,
                                    nonMultiplePeak, anyPeak, ownPeak, strongest_, floor_, ownFallDb_, spectrumFallDb_,
                                    firstOverClaimants, hidden, shortFrames_};
    heard_ = presentBy(evidence);
    if (heard_) {
        // Three or more: f1 and B; fewer: f1 for the B found before (fitPartials would take a lone
        // 1st partial as it is, however shared). A shared 1st partial (fitting_[0]: partials are found
        // in order) is left out when enough others remain (kFitWithoutSharedFirst).
        const std::size_t skip = sharedFirst && own > kFitWithoutSharedFirst ? 1 : 0;
        const Partial *fitted = fitting_.data() + skip;
        const std::size_t fittedCount = own - skip;
        StiffString fit = fittedCount >= 3
                              ? stringFit(fitted, fittedCount, fit_)
                              : StiffString{firstPartialFor(fitted, fittedCount, ownB_, fit_.f1), ownB_};
        // Claimed partials far off that fit are left out, and the rest (three at least) fitted again
        // (kSharedOffFitCents).
        if (fittedCount > 3) {
            std::array<Partial, kStringPartials> onFit;
            std::size_t kept = 0;
            for (std::size_t j = 0; j < fittedCount; ++j)
                if (!(claimedFitted[j + skip] &&
                      std::abs(centsBetween(fitted[j].frequency, seriesAt(fitted[j].k, fit))) > kSharedOffFitCents))
                    onFit[kept++] = fitted[j];
            if (kept >= 3 && kept < fittedCount) fit = stringFit(onFit.data(), kept, fit);
        }
        heard_ = inRange(fit.f1);
        if (heard_) fit_ = fit;
        if (heard_ && own >= 3) ownB_ = fit.B;
    }
    // Not heard (a damped string included) is forgotten: the next hop looks for it afresh. So is a string
    // heard through its 1st partial alone when that partial is one peak with other strings' partials
    // (StringPresence: kLoneFirstHiddenPartials): it is reported, but its fit is that one peak with B = 0,
    // and the next hop's search, resumed from there, takes whatever peaks lie within its tolerances of
    // where that one peak puts the string's series, other strings' partials among them. strums.py-made
    // open E strum with E3 muted (Tests/Fixtures/strums/synthetic_open_e_strum_20_e3_muted.flac): heard
    // once on E2's 2nd partial, the muted E3 was followed on E2's even partials and reported on 59 of 120
    // hops (PolyCLITests: aMutedOpenEsE3IsNotFollowedOnTheLowEsEvenPartials, which fails with the string
    // followed). Measured, followed / searched afresh: open-tuning strums with an octave string muted
    // (scratch development draws, BENCHMARKS.md "Stop 32") reported it on 1.25 / 0.96 % of their hops
    // (1.08 % without a claimed 1st partial); strums.py's tuning part: the other tunings' sounding
    // string-hops not heard 1.98 / 2.02 %, readings over 10 ¢ off 97 / 97, every other figure the same.
    const bool sharedFirstAlone = own == 1 && sharedFirst;  // heard, if at all, by the lone-first rule
    previous_ = heard_ && !sharedFirstAlone ? fit_ : StiffString{0, 0};
    if (!heard_) ownB_ = 0;
    tracked_ = heard_;
    // The attack guard: followed (the next hop resumes from this fit) but not reported unless the
    // string is heard through partials that are not rising, one of them its 1st or 2nd (in an attack
    // the other strings' series are not all found yet, so "clean" partials are not yet known to be:
    // PolyTests' mutedStringsAreNotHeardInTheAttack heard muted strings on 2 hops when they counted).
    if (guarded_ && heard_) heard_ = settledOwn >= kMinOwnPartials && settledLowest <= kLowestOwnPartial;
}

void StringPartials::confirm(const StringPartials *strings, std::size_t count, double collisionHz) {
    if (!heard_ || hopsSinceReported_ <= resumeHops_) return;
    const double fitFirst = seriesAt(1, fit_);  // where the fit of its own partials puts the 1st
    bool first = false;
    for (std::size_t i = 0; i < foundCount_ && !first; ++i)
        first = found_[i].k == 1 && std::abs(centsBetween(found_[i].frequency, fitFirst)) <= kFirstOnSeriesCents;
    first = first || onAnotherString(strings, count, fitFirst, collisionHz);
    if (first) return;
    heard_ = tracked_ = false;
    previous_ = {0, 0};
    ownB_ = 0;
}

} // namespace ctuner
