// PolyAnalyser.hpp — polyphonic strum analysis: every string of a tuning read at once, each near its
// own target. A unit beside the monophonic PitchEngine, sharing its DSP units (Ring, RealFft,
// WindowCache and the phase vocoder through SpectralFrames, the stiff-string fit of PartialFit).
//
// Method: the strings are known in advance, so no polyphonic pitch detection is needed — only
// attribution of the spectrum's partials to strings. One Blackman–Harris frame pair per hop (phase
// vocoder: Flanagan & Golden 1966; Puckette & Brown 1998); per string, a harmonic sum within ±searchCents
// of its target (±1 semitone plus margin: octave errors are outside it), its partials taken by their
// phase advance, partials shared with another string's series given to the string whose spectral
// envelope cannot explain them (Klapuri 2003, spectral smoothness: StringPartials.hpp), and Fletcher's
// stiff-string series fitted to each string's own partials.
//
// Two frame lengths. The whole analysis runs on 0.25 s frames, which find a strum's strings soon after
// it and notice a damped one; and again on 0.5 s frames, whose bins are half as wide, so a B3 or E4
// whose partials lie a few hertz from the low E's or A's is told apart from them more often, and every
// reading is steadier. Whether a string sounds is the short frames' to say (but for a string they had
// heard for 0.3 s and lose, or place elsewhere while the long frames hear it for 0.3 s: the long frames
// keep it, kEstablishedSeconds); a string they hear takes its
// reading from the long frames when those hear it too, once the long frame pair is past the strum's
// attack (kLongAfterAttackSeconds) and what the long frames read of it the short frames hold as well
// (kLongVetoDb); a kept string they do not hear, at once, while kKeptVetoDb holds; else from the short
// frames. Where the two read a string more than kDisagreeCents apart, one is on another string's
// partials, and the one resting on more partials that no other string's series claims is taken. A string
// damped by a palm while the others ring is heard on a third, shorter pair of 80 ms frames (PalmWatch)
// ~0.07 s after the palm, and is then not reported.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "../include/ctuner.h"
#include "PalmWatch.hpp"
#include "Ring.hpp"
#include "StrumPass.hpp"

namespace ctuner {

/// At most this many strings (a 12-string guitar).
constexpr std::size_t kMaxPolyStrings = CT_POLY_MAX_STRINGS;

class PolyAnalyser {
public:
    /// Makes every buffer and FFTW plan. Throws std::invalid_argument (naming the limit) for an
    /// out-of-range configuration, no or too many strings, a target outside the configured frequency
    /// range, or two targets closer than kMinTargetSpacingCents.
    PolyAnalyser(const ct_config &config, const double *targets, std::size_t count);
    ~PolyAnalyser();
    PolyAnalyser(const PolyAnalyser &) = delete;
    PolyAnalyser &operator=(const PolyAnalyser &) = delete;

    /// Fired synchronously from process(), once per completed hop, with one reading per string (in the
    /// order of the targets). The array lives until the next hop.
    std::function<void(double time, const ct_poly_string *strings, std::size_t count)> onHop;

    /// Feeds `count` mono samples. Allocates nothing, locks nothing.
    void process(const float *samples, std::size_t count);
    /// Forgets all input and readings (time restarts at 0).
    void reset();

    std::size_t hopSize() const { return hop_; }

private:
    /// What the frames have said of a string since the last attack (the short frames' attack).
    struct SinceAttack {
        long heardInARow = 0;      // hops in a row it has been heard
        long longInARow = 0;       // hops in a row the long frames have heard it (kSeedAfterSeconds)
        long onlyLongInARow = 0;   // hops in a row only the long frames have heard it, the short placing it elsewhere
        long onlyLongSteady = 0;   // of them, the hops in a row whose long reading moved kSteadyLongCents at most
        long byTurnsInARow = 0;    // hops in a row the long frames have heard it, the short agreeing or elsewhere
        double lastLong = 0;       // the long frames' reading of the hop before, Hz (0: not heard)
        bool established = false;  // heard for kEstablishedSeconds in a row
        bool reported = false;     // reported since the attack (kFirstReportSeconds)
        bool damped = false;       // damped by a palm (PalmWatch) since the attack
        bool fellAway = false;     // lost by the short frames, then over kKeptVetoDb under the long frames
    };
    void analyse();
    void forget();
    /// Forgets what the short frames have said of each string since the last attack (SinceAttack).
    void restartSinceAttack();
    /// How far string i's own partials in the long frames stand above the same frequencies in the short
    /// frames, each as a sinusoid's amplitude (dB; about 0 when the short frames hold all of them).
    double shortUnderLongDb(std::size_t i) const;
    static ct_poly_string reading(const StringPartials &s, double toAmplitude);

    double fs_, gateDb_;
    StrumPass short_, long_;  // the 0.25 s and the 0.5 s frames
    PalmWatch palms_;  // a string damped while the others ring, heard on 80 ms frames
    std::size_t hop_, levelWindow_;
    Ring history_;
    std::vector<ct_poly_string> readings_;
    std::size_t consumed_ = 0, sinceHop_ = 0;
    long longAfterHops_;
    long hopsSinceAttack_ = 0;
    long establishedHops_;
    long steadyLongHops_;
    long seedAfterHops_;
    long firstReportHops_;
    std::vector<SinceAttack> since_;
};

} // namespace ctuner
