// StringPresence.cpp — see StringPresence.hpp.
#include "StringPresence.hpp"

#include "Arithmetic.hpp"

#include <cmath>

namespace ctuner {

bool presentBy(const PresenceEvidence &e) {
    const bool oddFound = e.oddPeak >= e.anyPeak * std::pow(10.0, -kOddUnderStrongestDb / 20);
    const bool notAHigherNote = e.nonMultiplePeak >= e.anyPeak * std::pow(10.0, -kNonMultipleUnderStrongestDb / 20);
    const bool loudEnough = e.ownPeak >= e.strongest * std::pow(10.0, -kUnderStrongestDb / 20) &&
                            (e.wasHeard || e.ownPeak >= e.floor * std::pow(10.0, kOwnOverFloorDb / 20));
    const std::size_t clean = (e.wasHeard ? e.clean : e.cleanLow) + (e.onSeries ? (e.wasHeard ? e.won : e.wonLow) : 0);
    const bool held = e.wasHeard && e.shortFrames && clean >= kHeldCleanPartials;
    const bool grounded = e.lowest <= kLowestOwnPartial || (e.lowFound && clean >= kMinCleanPartials) || held;
    const bool loneFirst = e.own == 1 && e.firstOverClaimants && e.hidden >= kLoneFirstHiddenPartials &&
                           e.ownPeak >= e.anyPeak * std::pow(10.0, -kLoneFirstUnderStrongestDb / 20);
    const bool enoughOwn = e.own >= kMinOwnPartials || loneFirst;
    return !dampedBy(e) && oddFound && notAHigherNote && loudEnough && enoughOwn && grounded;
}

bool dampedBy(const PresenceEvidence &e) { return fellBeyondSpectrum(e.ownFallDb, e.spectrumFallDb, kDampedFallDb); }

bool onSeriesOf(double f1, double other) {
    if (!(f1 > 0 && other > 0)) return false;
    for (int m = 2; m <= kHighestNoteMultiple; ++m)
        if (std::abs(centsBetween(m * other, f1)) < kSeriesCents) return true;
    return false;
}

bool fellBeyondSpectrum(double ownFallDb, double spectrumFallDb, double thresholdDb) {
    return spectrumFallDb <= 0 && ownFallDb - spectrumFallDb <= -thresholdDb;
}

} // namespace ctuner
