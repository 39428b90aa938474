// Geometry.hpp — every length the engine works with, derived once from its configuration: the rates,
// the NSDF windows and lags, the refinement frames and the histories that hold them.
#pragma once

#include <cstddef>

#include "../include/ctuner.h"

namespace ctuner {

/// The period decision runs on a copy of the input decimated by a whole factor to about this rate or
/// above (20–24 kHz): the NSDF's cost falls with it, and the notes it decides (≤ 4.2 kHz by default)
/// keep ≥ 4.7 samples per period. (Since the engine's first version; not re-measured.)
constexpr double kDecimatedRateFloor = 20000.0;
/// The long NSDF window, in periods of the lowest note: McLeod and Wyvill's NSDF needs two periods for
/// a key maximum at the period; 3.5 leaves room for the 0.85 rule to find it when a strong 2nd
/// partial makes the half period the higher maximum (121 ms at the default 29 Hz floor).
constexpr double kLongWindowPeriods = 3.5;
/// The short NSDF window: the newest 45 ms, which hear only the new string soon after a string change
/// (BENCHMARKS.md, "Octave errors on attacks": B0→B1, the short window cannot see B0's period).
constexpr double kShortWindowSeconds = 0.045;
/// Refinement frames are this many periods of the note long: the partials are resolved under the
/// Blackman–Harris main lobe (±4 bins) with room to spare.
constexpr double kFramePeriods = 6.0;
/// … and never shorter than this: a high note's 6 periods are too few samples for its phase advance.
constexpr double kFrameFloorSeconds = 0.032;
/// The level (dBFS) is the RMS of the newest 50 ms.
constexpr double kLevelSeconds = 0.05;

struct Geometry {
    double fs;                        // input sample rate, Hz
    double minFrequency, maxFrequency;
    double gateDb;
    std::size_t hop;                  // samples between results
    std::size_t decimation;           // input samples per decimated sample
    double fsDecimated;               // fs / decimation
    std::size_t nsdfWindow;           // the long NSDF window, decimated samples
    std::size_t minLag, maxLag;       // its lag range
    std::size_t shortWindow, shortMaxLag;
    std::size_t frameMin, frameMax;   // refinement frame lengths, input samples
    std::size_t levelWindow;          // input samples for the level
    std::size_t historyLength;        // input samples kept: 2 frames of the lowest note and the level
    std::size_t decimatedLength;      // decimated samples kept: the long window and a margin

    /// Throws std::invalid_argument, naming the limit, for an out-of-range configuration.
    static void validate(const ct_config &c);
    explicit Geometry(const ct_config &c);
};

} // namespace ctuner
