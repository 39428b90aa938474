// StringPartials.hpp — one string of a strum, searched near its target: its partials in a shared
// spectrum, which of them are its own when another string's series lands on them, and its stiff-string
// fit on those. The polyphonic analyser (PolyAnalyser) runs one per string.
//
// Method: A. Klapuri, "Multiple fundamental frequency estimation based on harmonicity and spectral
// smoothness", IEEE Trans. Speech Audio Process. 11(6), 2003 — a partial that two sources' series share
// belongs to the one whose own spectral envelope cannot explain its magnitude (the envelope is
// interpolated from that source's neighbouring partials). The partials are measured by the phase vocoder
// (SpectralPeaks) and fitted to Fletcher's stiff-string series (PartialFit), as in the monophonic engine.
// The search is StringPartials.cpp; the claims, the ownership of shared partials and whether the string
// is heard, StringClaims.cpp.
#pragma once

#include <array>
#include <cstddef>

#include "../include/ctuner.h"
#include "PartialFit.hpp"
#include "SpectralPeaks.hpp"

namespace ctuner {

/// Partials 1…16 of a string are looked for (a guitar's low E has 16 below 1.4 kHz; the higher ones
/// add little weight to the fit and more collisions with other strings).
constexpr int kStringPartials = 16;

/// A string's search started from a measured fit (its reading of the hop before, or this hop's resolved
/// fit) is checked for a jump onto another string's partial only once the string has been heard for this
/// long in a row (StringPartials.cpp: kJumpRatio). Before that its reading may still move far from hop
/// to hop as the attack leaves the frames, and a search held at it loses the string: strums.py's tuning
/// part with the check from the first heard hop lost the 20 dB strum s12's A2 on 81 % of its hops (20 dB
/// strums' sounding string-hops not heard 1.81 → 2.49 %, muted strings reported 0.01 → 0.04 %). At
/// 0.05 and 0.1 s none of that, and the same FluidR3 figures; at 0.2 s FluidR3's sounding string-hops
/// not heard 7.96 → 8.18 %. PolyTests' aQuietHighEBesideTheA2sThirdStaysOnItsOwnSeries fails at 0.3 s.
constexpr double kJumpCheckAfterSeconds = 0.1;

/// Other strings' partials a string's harmonic sum leaves out (StringPartials.cpp).
struct OthersPartials;

/// Other strings' whole series, where their readings of the hop before put them (StringPartials.cpp:
/// kApartFromSeriesPartials).
struct OthersSeries {
    std::array<StiffString, CT_POLY_MAX_STRINGS> fits{};
    std::size_t count = 0;
    /// Whether `frequency` lies within collisionHz of a partial of one of them (any partial number).
    bool near(double frequency, double collisionHz) const;
};

/// One spectrum shared by every string's search: a frame pair, its FFT and what describes it.
struct SharedSpectrum {
    SpectralFrames *frames;
    const RealFFT *fft;
    std::size_t D;       // samples between the frame pair (the phase vocoder's advance)
    double binHz;        // fs / FFT size
    double frameBinHz;   // fs / frame length: the frame's resolution (the FFT is zero-padded beyond it)
    double collisionHz;  // two partials closer than this cannot be told apart (StrumPass.cpp: kCollisionBins)
    double floor;        // the noise floor (median magnitude)
    double strongest;    // the strongest magnitude analysed
    double limitHz;      // no partial is looked for above this
    bool attack;         // the analysed spectrum's energy grew more than kAttackEnergyRise (StrumPass.cpp) over the pair
    double fallDb;       // the analysed spectrum's energy in the newer frame over the older one's, dB
    bool longFrames;     // the long frames' pass (StringPartials.cpp: kCoarsePartials, kOthersPartialsOutOfTheSum)
};

/// A partial found for a string: its number, phase-vocoder frequency, magnitude, and whether the
/// string may use it (its own, or shared but mostly its own by spectral smoothness).
struct FoundPartial {
    int k = 0;
    double frequency = 0;
    double magnitude = 0;
    bool claimed = false;  // another string's series puts a partial within collisionHz of it
    bool own = false;
    bool rising = false;  // in its attack: grew more than kAttackRise over the frame pair
    double older = 0;     // its bin's magnitude in the older frame of the pair
    bool onSkirt = false; // on the skirt of a far stronger peak: not the string's own (StringPartials.cpp: kSkirtUnderDb)
};

class StringPartials {
public:
    /// A string whose target fundamental is `target` Hz, searched within ±searchCents of it;
    /// `resumeHops`: for how many hops after it was last reported it may be reported again without its
    /// 1st partial (confirm); `steadyHops`: kJumpCheckAfterSeconds in hops.
    StringPartials(double target, double searchCents, int resumeHops, int steadyHops);

    /// Looks for the string's partials, starting from its reading of the hop before when it had one,
    /// else from the best harmonic sum within the search range (made again without the lowest partials of
    /// the other `strings` followed from the hop before when its candidate gives no 1st or 2nd partial
    /// off theirs, and in the long frames once more without their whole series when it still gives neither:
    /// kOthersPartialsOutOfTheSum); a string on another followed string's series whose 1st and
    /// 2nd partials are found only there is searched again apart from it (kApartFromSeriesPartials); fits
    /// them all (none is excluded yet).
    void search(const SharedSpectrum &s, const StringPartials *strings, std::size_t count);
    /// When resolve() heard the string: its partials looked for again where the fit of its own ones
    /// puts them (a shared 1st partial that misled the first search's inharmonicity hid the higher
    /// ones); else nothing changes.
    void searchAgain(const SharedSpectrum &s);
    /// Marks each found partial that another string's series also puts there (within collisionHz) as
    /// claimed. `strings` are all the strings of the strum (this one is skipped; so are those without a
    /// claimant: not grounded(), and nobody standing in for them, standBy).
    void markClaims(const StringPartials *strings, std::size_t count, double collisionHz);
    /// Decides which found partials are the string's own — unclaimed ones, and claimed ones the
    /// claimant's envelope cannot explain — fits those, and decides whether the string is heard.
    void resolve(const StringPartials *strings, std::size_t count, double collisionHz);
    /// After the last resolve of a hop: a string heard now that was not reported within the last
    /// `resumeHops` hops is reported only when its 1st partial was found where its fit puts it
    /// (kFirstOnSeriesCents, StringClaims.cpp), or lies on another string's partial (hidden there); else
    /// it is not heard and not followed (kResumeSeconds, PolyAnalyser.cpp).
    void confirm(const StringPartials *strings, std::size_t count, double collisionHz);
    /// The magnitude this string's own spectral envelope predicts at its partial k, from its found
    /// partials k±1 (else k±2) that no other string claims, each on a plucked string's 1/k² slope;
    /// without any, from the nearest partial found, at most the nearest clean one below on 1/k; 0 when
    /// there is none.
    double envelopeAt(int k) const;
    /// The nearest clean (unclaimed) partial below k extrapolated to k on 1/k; 0 when there is none.
    /// It caps envelopeAt's fallback, and with envelopeAt it bounds what this string may put in a peak
    /// another string keeps (kContamination).
    double cleanBelowOnOneOverK(int k) const;
    /// The number of this string's partial within collisionHz of `frequency`, or 0 when none is.
    int partialNear(double frequency, double collisionHz) const;
    /// A string this pass does not follow, while `other` (the same string in the other frame length's
    /// pass) hears it: the next search starts from other's reading instead of a harmonic sum
    /// (PolyAnalyser.cpp, where it is called for a string the short frames place elsewhere). Whether it
    /// is heard there is still this pass's to say.
    void seedFrom(const StringPartials &other) {
        if (!tracked_ && other.heard_) previous_ = other.fit_;
    }
    /// The same string in the long frames' pass (`other`), which claims other strings' peaks for this one
    /// in this pass while this pass's search does not ground it and `other` is heard (claimant), within
    /// `collisionHz`, the long frames' own collision distance; `scale` turns its magnitudes into this
    /// pass's. nullptr: nobody stands in. PolyAnalyser.cpp sets it for a string the long frames have heard
    /// for kSeedAfterSeconds since the last attack. A low string the short frames cannot ground (a five- or
    /// six-string bass's B0, 10 Hz from E1, inside one main lobe of the 0.25 s frames) otherwise claims
    /// nothing there, and a string on its series takes its partials: strums.py's muted other-tunings strum
    /// bass6 201 reported its muted C3 on B0's 4th and 8th partials (−121 ¢) to the end (PolyTests:
    /// aSixStringBassesMutedC3IsNotRead…, which fails without it). Within the long frames' collision
    /// distance, not this pass's: at the short frames' 12 Hz, B0's stand-in claimed E1's 1st partial 10 Hz
    /// from its own, which the long frames part, and a fresh 5-string strum (strums.py's other-tunings
    /// generator, seed 60, in neither part) lost E1 on 179 of its 186 steady hops instead of 8.
    /// Measured with strums.py's tuning part, without / with (at the short frames' collision distance /
    /// at the long frames'): the other tunings' sounding string-hops not heard 2.02 / 1.79 / 1.92 %, p95
    /// 0.906 / 0.798 / 0.841 ¢, readings over 10 ¢ off 97 / 49 / 56; muted other-tunings strings reported
    /// 1.24 / 1.14 / 1.14 %; FluidR3 sounding string-hops not heard 3.73 / 3.77 / 3.77 %, p95 5.00 / 5.20 /
    /// 5.20 ¢; silent strings on the weak-fundamental set's FluidR3 renders 3.69 / 3.66 / 3.68 %
    /// (Benchmarks/weak_fundamental.py, played heard 91.74 % at each), on the real recordings' development
    /// half 0.76 % at each (Benchmarks/poly_real.py); every guitar figure the same. On fresh draws in
    /// neither part (the other-tunings generator's seeds 60–67, with kRivalEnvelopeRatio): not heard 1.75 %
    /// without, 1.83 % at the short frames' distance, 1.65 % at the long frames'. Standing in from the long
    /// frames' first hop heard (at the short frames' distance): FluidR3 3.78 % / 5.35 ¢, the weak set's
    /// played notes heard 91.60 %.
    void standBy(const StringPartials *other, double scale, double collisionHz) {
        standIn_ = other;
        standInScale_ = scale;
        standInCollisionHz_ = collisionHz;
    }
    /// Forgets the reading the next search would start from.
    void forget() {
        previous_ = {0, 0};
        ownB_ = 0;
        heardRun_ = 0;
        heard_ = tracked_ = false;
        hopsSinceReported_ = kNeverReported;
    }

    /// Whether the search found the string's 1st partial, or its 2nd where no other string found its own
    /// 1st (markGround): only then may its series claim other strings' peaks (a muted E2 finds peaks at its
    /// 4th, 8th, 12th partials — a sounding E4's — and would otherwise take E4's partials from it). A muted
    /// string finds the string an octave over it as its 2nd, 4th, 6th… partials: grounded by D3's 1st, a
    /// drop D's muted D2 claimed every partial of D3, and D3 was never heard (PolyTests:
    /// aDropDsD3IsHeardWhenTheLowDIsMuted fails with the 2nd grounding every string).
    bool grounded() const {
        return foundCount_ > 0 && (found_[0].k == 1 || (found_[0].k == 2 && !secondOnAnothersFirst_));
    }
    /// After every string's search, before markClaims: whether the lowest partial this string found is its 2nd
    /// and lies within collisionHz of the 1st partial another string found (grounded). Not in an attack
    /// (SharedSpectrum::attack), where the strings' searches still jump from hop to hop: from the attack on, a
    /// muted open E's E3 (PolyCLITests: aMutedOpenEsE3IsNotFollowedOnTheLowEsEvenPartials, which fails so) was
    /// no longer grounded at E4's octave below, was searched afresh onto E2's 2nd partial while E2's own search
    /// had not settled, and was reported there on 44 of 120 hops. Measured with the 2nd grounding every
    /// string / with this (strums.py's tuning part): the muted other-tunings strums' sounding string-hops not
    /// heard 3.23 / 1.21 %, p95 1.531 / 0.731 ¢, out-of-tolerance identified 98.3 / 100 %, muted strings
    /// reported 0.82 / 0.84 % (an open D strum's muted string on 6 hops); the other tunings' not heard
    /// 1.41 / 1.40 %; every guitar and soundfont figure the same. Fresh draws in neither part
    /// (strums_fresh.py): muted other tunings not heard 7.73 / 1.74 %, p95 inf / 0.78 ¢, muted strings reported
    /// 0.11 / 0.13 %; other tunings 1.14 / 1.10 %. Silent strings on the weak-fundamental set 3.65 / 3.67 %
    /// (played notes heard 91.72 % both), on the real recordings' development half 0.67 / 0.62 %. Also in an
    /// attack (as first tried): the fixture above, and an open D strum's D3 (an octave over D2 to a cent) lost
    /// on 101 hops instead of 5. Never grounded by its 2nd when not heard the hop before, whatever lies there:
    /// the real development half's silent strings 1.39 % (a bowed cello C3's silent C2, grounded by its 2nd,
    /// kept the silent G2 off C3's partials), fresh muted other tunings 1.81 %. No unit test tells this rule
    /// from that one.
    void markGround(const StringPartials *strings, std::size_t count, double collisionHz, bool attack);
    /// Where its partial k lies by its reading of the hop before, when it is followed from there (the
    /// next search starts at that reading); 0 when it is not.
    double followedPartial(int k) const { return previous_.f1 > 0 ? seriesAt(k, previous_) : 0; }
    bool heard() const { return heard_; }
    double frequency() const { return fit_.f1; }
    double inharmonicity() const { return fit_.B; }
    /// The string's own partials' summed magnitude² (its level), and their share of all its found ones.
    double ownEnergy() const { return ownEnergy_; }
    double clarity() const { return clarity_; }
    /// Its own partials' summed magnitude² in the newer frame over the older one's, in dB (0 without
    /// own partials): ~−1 dB for a string ringing on, tens of dB once a palm has damped it.
    double ownFallDb() const { return ownFallDb_; }
    /// How many of its found partials the last resolve took as its own.
    std::size_t ownCount() const { return own_; }
    /// Its own partials above the 2nd that no other string's series claims, at the last resolve.
    std::size_t cleanCount() const { return clean_; }
    /// Its own partials, of any number, that no other string's series claims, at the last resolve.
    std::size_t unclaimedCount() const { return unclaimed_; }
    double target() const { return target_; }
    const FoundPartial *partials() const { return found_.data(); }
    std::size_t partialCount() const { return foundCount_; }

private:
    /// fitPartials, with B no larger than kMaxStringInharmonicity (f1 then fitted again for it).
    static StiffString stringFit(const Partial *partials, std::size_t count, StiffString start);
    /// Whether the search found its 1st or 2nd partial off `others` (kOthersPartialsOutOfTheSum).
    bool groundedOff(const OthersPartials &others, double collisionHz) const;
    /// The candidate of the best harmonic sum within the search range; with `leftOut`, the sum made
    /// without those partials at its partials 2 and up (kOthersPartialsOutOfTheSum).
    /// With `leftOutSeries`, also without any partial of those strings at its partials 2 and up
    /// (kOthersPartialsOutOfTheSum: the whole series).
    double coarse(const SharedSpectrum &s, const OthersPartials *leftOut,
                  const OthersSeries *leftOutSeries = nullptr) const;
    /// Whether the last search found the string's 1st or 2nd partial.
    bool lowPartialFound() const;
    /// What one search or scan leaves behind: its partials and its fit, to give back when another one
    /// is not taken (search, searchFrom). The rest searchFrom sets is the same for every search of a hop.
    struct SearchResult {
        std::array<FoundPartial, kStringPartials> found;
        std::size_t count;
        StiffString fit;
    };
    void restore(const SearchResult &r);
    /// Whether the spectrum holds a peak over kOverFloor within kFirstTolerance of the search range that
    /// no followed string's series puts a partial near: what the whole-series search must find as its
    /// 1st partial (kOthersPartialsOutOfTheSum), looked for before that search is made.
    bool peakOffFollowed(const SharedSpectrum &s) const;
    /// Who claims other strings' peaks for this string: itself when grounded(), else its stand-in
    /// (standBy) when that one is heard, with the scale of its magnitudes; else nobody (s == nullptr).
    struct Claimant {
        const StringPartials *s;
        double scale;
        double collisionHz;
    };
    Claimant claimant(double collisionHz) const;
    /// Its found partial number k within collisionHz of `frequency`; nullptr when there is none.
    const FoundPartial *foundNear(int k, double frequency, double collisionHz) const;
    /// Whether another string of `strings` with a claimant puts a partial within collisionHz of `frequency`.
    bool onAnotherString(const StringPartials *strings, std::size_t count, double frequency, double collisionHz) const;
    /// `measured`: `start` is a fit of this string's own partials (its reading of the hop before, or this
    /// hop's resolved fit), not the harmonic sum's candidate (kJumpRatio).
    void searchFrom(const SharedSpectrum &s, StiffString start, bool measured);
    /// One pass over partials 1…kStringPartials from `start` into found_ and fitting_: each partial found
    /// moves the prediction of the next ones, once `heldFor` of them are found (until then the prediction
    /// stays at `start`); `apartFromSeries`: but for those on series_, which only narrow the next ones'
    /// tolerance (kApartFromSeriesPartials). Returns the fit the last prediction came from (all found, or
    /// `start`).
    StiffString scan(const SharedSpectrum &s, StiffString start, std::size_t heldFor, bool apartFromSeries = false);
    /// How many of the partials found up to kCleanStartHighestPartial lie off every other followed string's
    /// series (kApartFromSeriesPartials).
    std::size_t offFollowed(double collisionHz) const;
    bool inRange(double f) const { return f >= low_ && f <= high_; }

    static constexpr int kNeverReported = 1 << 30;

    double target_, low_, high_;
    int resumeHops_, steadyHops_;
    int heardRun_ = 0;  // hops in a row the string has been heard, up to the hop before (set by search)
    std::size_t own_ = 0;    // see ownCount (set by resolve)
    std::size_t clean_ = 0;  // see cleanCount (set by resolve)
    std::size_t unclaimed_ = 0;  // see unclaimedCount (set by resolve)
    int hopsSinceReported_ = kNeverReported;  // hops since the string was last reported (set by search)
    std::array<FoundPartial, kStringPartials> found_{};
    std::size_t foundCount_ = 0;
    std::array<Partial, kStringPartials> fitting_{};  // the partials handed to fitPartials
    StiffString fit_{0, 0};       // from all found partials (search) and then from the own ones (resolve)
    StiffString previous_{0, 0};  // the reading of the hop before, when heard
    double ownB_ = 0;  // B of the last fit of three or more own partials (for fits of fewer), 0 once not heard
    bool heard_ = false;
    bool secondOnAnothersFirst_ = false;  // see markGround
    bool guarded_ = false;  // in an attack and not reported the hop before (set by search)
    bool wasHeard_ = false; // reported the hop before (set by search)
    bool shortFrames_ = false;  // this hop's spectrum is the short frames' (set by search; kHeldCleanPartials)
    bool tracked_ = false;  // heard by the rules without the attack guard: followed to the next hop
    double ownEnergy_ = 0, clarity_ = 0;
    double ownFallDb_ = 0;
    double spectrumFallDb_ = 0;  // SharedSpectrum::fallDb (set by search, for resolve)
    double strongest_ = 0;  // the analysed spectrum's strongest magnitude (set by search, for resolve)
    double floor_ = 0;      // the analysed spectrum's noise floor (set by search, for resolve)
    double frameBinHz_ = 0; // SharedSpectrum::frameBinHz (set by search, for resolve)
    OthersSeries series_;    // the followed strings on whose series this one's target lies (set by search)
    OthersSeries followed_;  // every other followed string (set by search)
    const StringPartials *standIn_ = nullptr;  // see standBy
    double standInScale_ = 1;
    double standInCollisionHz_ = 0;
};

} // namespace ctuner
