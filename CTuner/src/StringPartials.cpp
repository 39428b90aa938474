// StringPartials.cpp — see StringPartials.hpp.
#include "StringPartials.hpp"

#include "StringPresence.hpp"

#include <algorithm>
#include <cmath>

namespace ctuner {
namespace {
/// The harmonic sum that finds a string without a reading of the hop before adds partials 1…8 on a
/// grid of candidates 2 cents apart: the phase-vocoder search that follows takes partial 1 within
/// kFirstRadius, far wider than the grid's step.
constexpr int kCoarsePartials = 8;
constexpr double kCoarseStepCents = 2.0;
/// Where partial k is taken: within 2 % of where the coarse sum puts the first one found (the sum's
/// ±1-bin magnitudes place a low string within ~10 cents), within 1 % while fewer than three are
/// fitted (inharmonicity still unknown: a guitar E2's B ≈ 1e-4 moves partial 16 by 1.3 %), then
/// within 0.3 %. The peak is looked for over at least kMinRadiusBins FFT bins (its own lobe), but a
/// peak farther than the tolerance is another string's partial (B3 +29 ¢ is 2.8 % above a flat E2's
/// 3rd, 7 Hz: inside 3 bins) and is not taken.
constexpr double kFirstTolerance = 0.02, kFewTolerance = 0.01, kFittedTolerance = 0.003;
constexpr double kMinRadiusBins = 3.0;
/// A string's partial must be 5× (14 dB) above the noise floor (the median magnitude), not the
/// monophonic engine's 8× (18 dB, SpectralPeaks.cpp): a strum shares its level between six strings, so
/// at 20 dB SNR the upper strings' partials sank under 18 dB and 24 % of sounding string-hops were not
/// heard (strums.py tuning seeds). A noise bin's magnitude is Rayleigh-distributed and exceeds 5× its
/// median with probability ~3e-8 (8×: ~e^-44). Tuning seeds, 8× → 5× → 4×: 20 dB not heard 23.6 →
/// 18.2 → 15.7 %, out-of-tolerance identified 89.0 → 98.3 → 98.3 %, muted strings reported 0.04 →
/// 0.09 → 0.20 % of hops; 5 kept. PolyTests: aStrumTwentyDbOverTheNoiseIsHeard (fails at 8),
/// noiseAboveTheGateHearsNoString (fails at 2.5).
constexpr double kOverFloor = 5.0;
/// A claimed partial is the string's own when its magnitude is this many times (6 dB) what each
/// claimant's envelope predicts there: the claimant's neighbouring partials cannot explain it. Below
/// it the peak is left to the claimant (a plucked string's spectrum has comb notches, so a partial
/// can sit 2–3× above its neighbours' mean without another string; measured on the unit tests'
/// plucked spectra, PolyTests: aMutedHighEIsNotHeardFromTheLowEsPartials).
constexpr double kOwnOverEnvelope = 2.0;
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
/// A search started from a measured fit whose own fit ends more than this fraction (0.75 %, 13 ¢) away
/// from where it started, for a string heard for kJumpCheckAfterSeconds, took another string's partial
/// for its 1st or 2nd: a merged peak of the string's 1st partial and another string's partial a few
/// hertz away (FluidR3 strum 202: E4 −28.7 ¢ at 324.1 Hz and A2's 3rd at 328.1 Hz, 2.7 bins apart in
/// the 0.5 s frames) moved the prediction of its 2nd out of its tolerance and onto the other string's
/// series, and the string was read 20–33 ¢ off for tenths of a second. Such a search is made again from
/// the start, the prediction held there until kHeldPartials partials are found. A string heard steadily
/// moves less: a B3 1.4 Hz from E2's 3rd, read through the merged peak, moves up to ~0.58 % from hop to
/// hop (PolyTests' aB3LostInTheNoise… fails at 0.55 %: the held search loses it). PolyTests'
/// aQuietHighEBesideTheA2sThirdStaysOnItsOwnSeries fails without the rule and at 1.2 % (passes at
/// 0.5–1.0 %). strums.py's tuning part (FluidR3), heard string-hops read over 10 ¢ off the truth:
/// 103 without, 48 / 65 / 89 / 103 at 0.6 / 0.75 / 1.0 / 2.0 %; sounding string-hops not heard 8.43 →
/// 8.00 / 7.96 / 8.22 / 8.43 %; strum to ±1 ¢ of final 1.825 → 1.625 s up to 0.75 %, 1.825 s at 1.0 %;
/// every synthetic, muted and damped figure the same or better (40 dB not heard 0.19 → 0.17 %).
constexpr double kJumpRatio = 0.0075;
/// The search made again after a jump (kJumpRatio) predicts from where it started until this many
/// partials are found: from three on the search trusts its own fit (kFittedTolerance). At 2 the jump
/// comes back (strums.py tuning part, FluidR3 readings over 10 ¢ off: 65 → 99; PolyTests'
/// aQuietHighEBesideTheA2sThirdStaysOnItsOwnSeries fails); at 4, 72, and damped strings reported
/// 0.79 → 0.84 % of their hops.
constexpr std::size_t kHeldPartials = 3;
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
/// The largest inharmonicity a string of a strum is fitted with: guitar and bass strings stay under
/// ~3e-4 (Fletcher & Rossing, "The Physics of Musical Instruments", §2.18: a guitar's wound E2 ≈ 1e-4).
/// A fit beyond it is another string's partial taken for one of this string's: B inflated to 7e-4 by a
/// B3 on E2's 3rd moved E2's predicted 12th partial 70 ¢ onto A2's 9th (PolyCLITests, 1.1 ¢ off).
constexpr double kMaxStringInharmonicity = 5e-4;
/// A peak whose magnitude grew more than this many times (6 dB) between the phase vocoder's frame
/// pair (0.125 s apart) is in its attack: the newer frame holds a strum the older one barely does, so
/// the other strings' series are not yet found to claim it, and a muted string took it for its own
/// (every muted-string report on strums.py's tuning seeds came in the first 0.25 s after the strum,
/// 0.68 % of hops). While the whole spectrum is in an attack (SharedSpectrum::attack), a string not
/// reported the hop before is reported only when heard through peaks that are not rising; it is still
/// followed, so that the next hop resumes from its fit. Only then, and only for reporting: a sounding
/// string's partials decay by ~0.3–3 dB over the pair, but two beating partials in one peak can rise
/// more; excluding rising peaks at every hop lost 2–3 % of the tuning seeds' string-hops (0.68 → 0.04 %
/// muted reports, but 2.6 → 4.6 % sounding string-hops not heard), and a string not followed through
/// the attack was sometimes never found again by the coarse search (three strings of 60). PolyTests
/// bracket it from above (at 8 muted strings are heard in the attack); below 1 every peak of an attack
/// counts as rising, which neither the tests nor the tuning seeds told from 2 (0.8 tried): only
/// kAttackEnergyRise bounds the guard's cost.
constexpr double kAttackRise = 2.0;
} // namespace

/// fitPartials, with B no larger than kMaxStringInharmonicity (f1 then fitted again for it).
static StiffString stringFit(const Partial *partials, std::size_t count, StiffString start) {
    StiffString fit = fitPartials(partials, count, start);
    if (fit.B > kMaxStringInharmonicity) fit = {firstPartialFor(partials, count, kMaxStringInharmonicity, fit.f1), kMaxStringInharmonicity};
    return fit;
}

StringPartials::StringPartials(double target, double searchCents, int resumeHops, int steadyHops)
    : target_(target), low_(target * std::exp2(-searchCents / 1200.0)), high_(target * std::exp2(searchCents / 1200.0)),
      resumeHops_(resumeHops), steadyHops_(steadyHops) {}

double StringPartials::coarse(const SharedSpectrum &s) const {
    double best = 0, bestScore = -1;
    const double step = std::exp2(kCoarseStepCents / 1200.0);
    for (double f = low_; f <= high_; f *= step) {
        double score = 0;
        for (int k = 1; k <= kCoarsePartials && k * f < s.limitHz; ++k) score += s.frames->largestNear(k * f, s.binHz, s.fft->size / 2 + 1);
        if (score > bestScore) {
            bestScore = score;
            best = f;
        }
    }
    return best;
}

void StringPartials::search(const SharedSpectrum &s) {
    guarded_ = s.attack && !heard_;
    wasHeard_ = heard_;
    heardRun_ = heard_ ? heardRun_ + 1 : 0;
    hopsSinceReported_ = heard_ ? 0 : std::min(hopsSinceReported_, kNeverReported - 1) + 1;
    const bool resume = previous_.f1 > 0 && inRange(previous_.f1);
    searchFrom(s, resume ? previous_ : StiffString{coarse(s), 0}, resume);
}

void StringPartials::searchAgain(const SharedSpectrum &s) {
    if (tracked_) searchFrom(s, fit_, true);
}

void StringPartials::searchFrom(const SharedSpectrum &s, StiffString start, bool measured) {
    heard_ = false;
    strongest_ = s.strongest;
    floor_ = s.floor;
    frameBinHz_ = s.frameBinHz;
    spectrumFallDb_ = s.fallDb;
    ownEnergy_ = clarity_ = 0;
    StiffString fit = scan(s, start, 0);
    if (measured && heardRun_ >= steadyHops_ && std::abs(fit.f1 / start.f1 - 1) > kJumpRatio)
        fit = scan(s, start, kHeldPartials);  // see kJumpRatio
    fit_ = foundCount_ > 0 && inRange(fit.f1) ? fit : StiffString{0, 0};
    if (fit_.f1 == 0) foundCount_ = 0;
}

StiffString StringPartials::scan(const SharedSpectrum &s, StiffString fit, std::size_t heldFor) {
    foundCount_ = 0;
    std::size_t fitted = 0;
    for (int k = 1; k <= kStringPartials; ++k) {
        const double predicted = seriesAt(k, fit);
        if (predicted > s.limitHz) break;
        const double tolerance =
            predicted * (fitted == 0 ? kFirstTolerance : fitted < 3 ? kFewTolerance : kFittedTolerance);
        const double radius = std::max(kMinRadiusBins * s.binHz, tolerance);
        const Candidate c =
            s.frames->localPeakNear(*s.fft, s.D, predicted, radius, s.binHz, s.floor, s.strongest, kOverFloor);
        if (c.bin < 0 || std::abs(c.frequency - predicted) > tolerance) continue;
        const double older = s.frames->olderMagnitude(c.bin);
        const bool rising = c.magnitude > kAttackRise * older;
        found_[foundCount_++] = {k, c.frequency, c.magnitude, false, false, rising, older};
        fitting_[fitted++] = {k, c.frequency, c.magnitude};
        if (fitted >= heldFor) fit = stringFit(fitting_.data(), fitted, fit);
    }
    return fit;
}

int StringPartials::partialNear(double frequency, double collisionHz) const {
    if (fit_.f1 <= 0) return 0;
    const int k = int(std::lround(frequency / fit_.f1 / stiffness(frequency / fit_.f1, fit_.B)));
    if (k < 1) return 0;
    return std::abs(seriesAt(k, fit_) - frequency) < collisionHz ? k : 0;
}

bool StringPartials::onAnotherString(const StringPartials *strings, std::size_t count, double frequency,
                                     double collisionHz) const {
    for (std::size_t t = 0; t < count; ++t)
        if (&strings[t] != this && strings[t].grounded() && strings[t].partialNear(frequency, collisionHz) > 0) return true;
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
    std::size_t cleanLow = 0;  // of them, those up to kCleanStartHighestPartial
    std::size_t won = 0, wonLow = 0;  // own partials above the 2nd won from a claimant (kWonOffClaimantBins)
    bool lowFound = false;  // partial 1 or 2 found, whether own or shared
    double oddPeak = 0, anyPeak = 0, ownPeak = 0;  // the largest magnitudes: odd-numbered found, any found, own
    int lowest = kStringPartials + 1, settledLowest = kStringPartials + 1;
    double all = 0, ownOlder = 0;  // all found partials' energy; the own ones' in the older frame
    ownEnergy_ = 0;
    for (std::size_t i = 0; i < foundCount_; ++i) {
        FoundPartial &p = found_[i];
        p.own = true;
        double contamination = 0;  // the largest claimant envelope / magnitude
        double offClaimant = INFINITY;  // how far from the nearest claimant's predicted partial (Hz)
        for (std::size_t t = 0; t < count && p.claimed && p.own; ++t) {
            if (&strings[t] == this || !strings[t].grounded()) continue;
            const int j = strings[t].partialNear(p.frequency, collisionHz);
            if (j == 0) continue;
            const double envelope = strings[t].envelopeAt(j);
            p.own = p.magnitude > kOwnOverEnvelope * envelope;
            offClaimant = std::min(offClaimant, std::abs(p.frequency - seriesAt(j, strings[t].fit_)));
            const double most = std::max(envelope, strings[t].cleanBelowOnOneOverK(j));  // see kContamination
            contamination = std::max(contamination, most / p.magnitude);
        }
        const double energy = p.magnitude * p.magnitude;
        all += energy;
        lowFound = lowFound || p.k <= kLowestOwnPartial;
        if (p.k % 2 == 1) oddPeak = std::max(oddPeak, p.magnitude);
        anyPeak = std::max(anyPeak, p.magnitude);
        if (!p.own) continue;
        if (!p.claimed && p.k > kLowestOwnPartial) {
            ++clean;
            if (p.k <= kCleanStartHighestPartial) ++cleanLow;
        } else if (p.k > kLowestOwnPartial && offClaimant >= kWonOffClaimantBins * frameBinHz_) {
            ++won;  // see StringPresence: kSeriesCents, and kWonOffClaimantBins
            if (p.k <= kCleanStartHighestPartial) ++wonLow;
        }
        const double r = contamination / kContamination;
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
    clean_ = clean;
    bool onSeries = false;  // see kSeriesCents
    for (std::size_t t = 0; t < count && !onSeries; ++t)
        onSeries = &strings[t] != this && strings[t].grounded() && onSeriesOf(fit_.f1, strings[t].fit_.f1);
    const PresenceEvidence evidence{own, lowest, lowFound, clean, cleanLow, won, wonLow, onSeries, wasHeard_, oddPeak,
                                    nonMultiplePeak, anyPeak, ownPeak, strongest_, floor_, ownFallDb_, spectrumFallDb_};
    heard_ = presentBy(evidence);
    damped_ = own > 0 && dampedBy(evidence);
    if (heard_) {
        // Three or more: f1 and B; fewer: f1 for the B found before (fitPartials would take a lone
        // 1st partial as it is, however shared).
        const StiffString fit = own >= 3 ? stringFit(fitting_.data(), own, fit_)
                                         : StiffString{firstPartialFor(fitting_.data(), own, ownB_, fit_.f1), ownB_};
        heard_ = inRange(fit.f1);
        if (heard_) fit_ = fit;
        if (heard_ && own >= 3) ownB_ = fit.B;
    }
    // Not heard (a damped string included) is forgotten: the next hop looks for it afresh.
    previous_ = heard_ ? fit_ : StiffString{0, 0};
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
    bool first = false;
    for (std::size_t i = 0; i < foundCount_ && !first; ++i) first = found_[i].k == 1;
    first = first || onAnotherString(strings, count, seriesAt(1, fit_), collisionHz);
    if (first) return;
    heard_ = tracked_ = false;
    previous_ = {0, 0};
    ownB_ = 0;
}

} // namespace ctuner
