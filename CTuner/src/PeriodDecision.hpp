// PeriodDecision.hpp — which period (which note, which octave) a hop hears: the NSDF over the long
// window (3.5 periods of the lowest note), unless the short one (the newest 45 ms) clearly hears
// another note. A pure function of the two windows' periods and the note read last.
#pragma once

#include <cstddef>

#include "Nsdf.hpp"

namespace ctuner {

/// Below this clarity a window's period is not a note (no pitch for the hop; the engine's gate on the
/// chosen period too). McLeod and Wyvill's clarity; since the engine's first version.
constexpr double kMinClarity = 0.5;
/// A short-window period this clear is a new note on its own (and one at a subharmonic of the note
/// read last needs this much to be taken: the violin's A4→D4 read D3, the common subharmonic, until
/// it did — BENCHMARKS.md, "A third note during a damped string change").
constexpr double kNewNoteClarity = 0.9;
/// A short-window period this clear that disagrees with the long one means a note is changing: no
/// period (rather than a wrong one); and a note other than the last is taken only at this clarity.
constexpr double kChangingClarity = 0.8;
/// Two periods are the same within 3 % (half a semitone), a whole multiple within 3 % of the ratio.
constexpr double kSamePeriodRatio = 0.03;
/// A note is another note than the last one read beyond 50 cents (the nearest-note boundary).
constexpr double kOtherNoteCents = 50.0;
/// A period is a subharmonic (÷2…4) of the last note within 25 cents.
constexpr double kSubharmonicCents = 25.0;

struct PeriodInputs {
    Period longPeriod;        // over the long window
    Period shortPeriod;       // over the newest 45 ms
    std::size_t shortMaxLag;  // the short window's longest lag
    double previous;          // the note read last, Hz, or 0
    double fsDecimated;       // the rate of the lags
};

/// The period of the hop, or {} (no pitch) while the windows hear different notes clearly.
Period decidePeriod(const PeriodInputs &in);

} // namespace ctuner
