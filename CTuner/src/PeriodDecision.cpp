// PeriodDecision.cpp — see PeriodDecision.hpp.
#include "PeriodDecision.hpp"

#include <cmath>

namespace ctuner {

/// After a string change the long window still holds the old string for a while (and the two
/// together can look periodic at a common subharmonic), while the short one hears only the new
/// string. A long period beyond the short window's reach that is a whole multiple of the short one is
/// kept: that is a low note whose harmonic the short window saw, not a new note.
Period decidePeriod(const PeriodInputs &in) {
    const Period longP = in.longPeriod, shortP = in.shortPeriod;
    const double fsDecimated = in.fsDecimated, previous = in.previous;
    if (shortP.lag <= 0 || longP.lag <= 0 || longP.clarity < kMinClarity) {
        return shortP.clarity >= kNewNoteClarity ? shortP : longP;
    }
    const double ratio = longP.lag / shortP.lag;
    const bool same = std::abs(ratio - 1.0) < kSamePeriodRatio;
    const bool multiple = ratio > 1.5 && std::abs(ratio - std::round(ratio)) < kSamePeriodRatio * ratio;
    auto otherNote = [&](double lag) {
        return previous > 0 && std::abs(1200.0 * std::log2(fsDecimated / lag / previous)) > kOtherNoteCents;
    };
    // Whether the period is that of the note read last divided by 2, 3 or 4.
    auto subharmonicOfPrevious = [&](double lag) {
        if (previous <= 0) return false;
        const double n = previous * lag / fsDecimated;
        return std::round(n) >= 2 && std::round(n) <= 4 &&
               std::abs(1200.0 * std::log2(n / std::round(n))) < kSubharmonicCents;
    };
    // The short window agrees: the same period, or a harmonic of a note too low for it to see.
    // Right after a string change, though, the old string still rings under the new one, and the
    // two together repeat at a common subharmonic (A4 then D4: 147 Hz, D3, in both windows): a
    // note other than the last one is taken only once the short window hears it clearly, and one
    // at a subharmonic of the last note (as that common one is) only very clearly.
    if (same) {
        const bool unsure = shortP.clarity < (subharmonicOfPrevious(longP.lag) ? kNewNoteClarity : kChangingClarity);
        return (otherNote(longP.lag) && unsure) ? Period{} : longP;
    }
    if (multiple && longP.lag > double(in.shortMaxLag)) return longP;
    if (shortP.clarity >= kNewNoteClarity && shortP.clarity > longP.clarity) return shortP;  // a new note
    if (shortP.clarity >= kChangingClarity) return {};  // the windows disagree: a note is changing
    // The long window claims a note other than the one just read, and the short window hears
    // something else: the long one may be hearing two strings at once (unless it is the octave).
    if (previous > 0 && shortP.clarity >= kMinClarity) {
        double cents = 1200.0 * std::log2(fsDecimated / longP.lag / previous);
        if (std::abs(cents) > kOtherNoteCents && std::abs(cents - 1200) > kOtherNoteCents) return {};
    }
    return longP;
}

} // namespace ctuner
