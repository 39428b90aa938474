// Tracker.hpp — one analysis hop, from the newest input to a result, with the memory it keeps between
// hops written down in one struct and the way each hop ends named in one enum.
#pragma once

#include "../include/ctuner.h"
#include "Geometry.hpp"
#include "LevelRise.hpp"
#include "Nsdf.hpp"
#include "PartialSearch.hpp"
#include "Ring.hpp"
#include "SpectralPeaks.hpp"

namespace ctuner {

/// How a hop ended: Pitched, or why it has no pitch.
enum class HopState {
    Quiet,               // the level is under the gate
    NoPeriod,            // neither NSDF window found a clear period, or they disagree (a note changing)
    OutOfRange,          // the period is outside the configured range, or at the decimated Nyquist rate
    OctaveLow,           // the partials are all even: the period is twice the sound's
    StagesDisagree,      // the partials' fit is over kStagesAgreeOctaves from the period
    UnheardSinceAttack,  // after an attack, the sound since it does not repeat at this period
    NotFinite,           // the arithmetic gave no finite frequency (kept apart: it forgets nothing)
    Pitched,
};

/// Everything one hop leaves to the next.
struct TrackerMemory {
    double lastFrequency = 0;          // the previous hop's pitch, 0 when it had none (octave hysteresis)
    double recentFrequency = 0;        // the last pitch, kept across short dropouts …
    unsigned long long recentAt = 0;   // … and the input sample count it was read at
    unsigned long long heldSince = 0;  // input sample count when the current note began
    bool hadBreak = false;             // an attack was heard over the note read last …
    unsigned long long breakAt = 0;    // … starting at this input sample count
    unsigned hopsSinceOctaveCheck = 0; // the octave guard's answer …
    double octaveFactor = 1;           // … (×1 or ×½) …
    double checkedCoarse = 0;          // … for this period (Hz)
};

/// Readings within this many cents of each other are the same held note (its frames' offset grows).
constexpr double kHeldNoteCents = 50.0;
/// The period and the partials must agree within 0.025 octave (30 cents); when they do not (a
/// distorted attack, noise mistaken for a partial), neither is trusted for the hop.
constexpr double kStagesAgreeOctaves = 0.025;
/// A dropout of up to 0.2 s — a hop with no pitch — does not forget the note read last.
constexpr double kDropoutSeconds = 0.2;
/// The period's frequency may lie 3 % outside the configured range (the parabola's shift at its ends).
constexpr double kRangeLow = 0.97, kRangeHigh = 1.03;
/// A period near 2 samples is the decimated Nyquist frequency, not a note (alternating samples would
/// read as ≈ fs/2 — even above it, by the parabolic shift — when max_frequency is near fs/2).
constexpr double kMaxOfDecimatedRate = 0.45;

class Tracker {
public:
    explicit Tracker(const Geometry &g);

    /// One hop over the newest input (`consumed` samples so far); fills `r` and returns how it ended.
    HopState analyse(const Ring &history, const Ring &decimated, unsigned long long consumed, ct_result &r);
    void reset() {
        memory_ = TrackerMemory{};
        rise_.reset();
    }
    const TrackerMemory &memory() const { return memory_; }

private:
    double previousFrequency(unsigned long long consumed) const;
    HopState hop(const Ring &history, const Ring &decimated, unsigned long long consumed, ct_result &r,
                 double &frequency);
    double guardOctave(const Ring &history, unsigned long long consumed, double coarse);

    const Geometry &g_;
    Nsdf long_, short_;
    SpectralFrames spectra_;
    PartialSearch partials_;
    TrackerMemory memory_;
    LevelRise rise_;
};

} // namespace ctuner
