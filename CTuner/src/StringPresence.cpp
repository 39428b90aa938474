// StringPresence.cpp — see StringPresence.hpp.
#include "StringPresence.hpp"

#include <cmath>

namespace ctuner {

bool presentBy(const PresenceEvidence &e) {
    const bool oddFound = e.oddPeak >= e.anyPeak * std::pow(10.0, -kOddUnderStrongestDb / 20);
    const bool notAHigherNote = e.nonMultiplePeak >= e.anyPeak * std::pow(10.0, -kNonMultipleUnderStrongestDb / 20);
    const bool loudEnough = e.ownPeak >= e.strongest * std::pow(10.0, -kUnderStrongestDb / 20) &&
                            (e.wasHeard || e.ownPeak >= e.floor * std::pow(10.0, kOwnOverFloorDb / 20));
    const std::size_t clean = e.wasHeard ? e.clean : e.cleanLow;
    const bool grounded = e.lowest <= kLowestOwnPartial || (e.lowFound && clean >= kMinCleanPartials);
    return !dampedBy(e) && oddFound && notAHigherNote && loudEnough && e.own >= kMinOwnPartials && grounded;
}

bool dampedBy(const PresenceEvidence &e) { return fellBeyondSpectrum(e.ownFallDb, e.spectrumFallDb, kDampedFallDb); }

bool fellBeyondSpectrum(double ownFallDb, double spectrumFallDb, double thresholdDb) {
    return spectrumFallDb <= 0 && ownFallDb - spectrumFallDb <= -thresholdDb;
}

} // namespace ctuner
