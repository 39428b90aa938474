// PresenceTests.cpp — StringPresence's rules on evidence made by hand, each from both sides of its
// threshold: a string is sounding only with enough own partials, grounded on its 1st or 2nd (or, when
// with those shared, on clean ones), with odd partials, partials off every m-th, and loud enough.
#include "Check.hpp"

#include "../src/StringPresence.hpp"

#include <cmath>

using namespace ctuner;

namespace {
/// A string plainly sounding: three own partials from the 1st, odd ones at full level, at the
/// spectrum's strongest.
PresenceEvidence sounding() {
    PresenceEvidence e;
    e.own = 3;
    e.lowest = 1;
    e.lowFound = true;
    e.clean = 1;
    e.oddPeak = e.nonMultiplePeak = e.anyPeak = e.ownPeak = e.strongest = 1.0;
    return e;
}
double underDb(double db) { return std::pow(10.0, -db / 20); }
} // namespace

TEST(aStringNeedsTwoOwnPartialsOneOfThemItsFirstOrSecond) {
    PresenceEvidence e = sounding();
    CHECK(presentBy(e), "the plainly sounding string");
    e.own = kMinOwnPartials - 1;
    CHECK(!presentBy(e), "one own partial");
    e = sounding();
    e.lowest = kLowestOwnPartial;
    CHECK(presentBy(e), "own partials from the 2nd");
    e.lowest = kLowestOwnPartial + 1;
    CHECK(!presentBy(e), "own partials from the 3rd, not heard the hop before");
}

TEST(aLoneFirstPartialIsHeardOnlyWithTwoPartialsHiddenAndWithinEightDbOfTheStrongest) {
    // Its 1st partial its only own one, over what any claimant puts there; its other partials found hidden
    // under other strings'.
    PresenceEvidence e = sounding();
    e.own = 1;
    e.firstOverClaimants = true;
    e.hidden = kLoneFirstHiddenPartials;
    e.ownPeak = e.oddPeak = underDb(kLoneFirstUnderStrongestDb - 1);  // the strongest found is a hidden one
    CHECK(presentBy(e), "a lone 1st partial %.0f dB under the strongest, %zu hidden", kLoneFirstUnderStrongestDb - 1,
          e.hidden);
    e.hidden = kLoneFirstHiddenPartials - 1;
    CHECK(!presentBy(e), "one hidden partial too few");
    e.hidden = kLoneFirstHiddenPartials;
    e.ownPeak = e.oddPeak = underDb(kLoneFirstUnderStrongestDb + 1);
    CHECK(!presentBy(e), "the 1st partial %.0f dB under the strongest", kLoneFirstUnderStrongestDb + 1);
    e.ownPeak = e.oddPeak = underDb(kLoneFirstUnderStrongestDb - 1);
    e.firstOverClaimants = false;
    CHECK(!presentBy(e), "the lone 1st partial not over what other strings' series put there");
}

TEST(aStringHeardTheHopBeforeStaysOnItsCleanPartials) {
    PresenceEvidence e = sounding();
    e.lowest = 3;
    e.wasHeard = true;
    e.clean = kMinCleanPartials;
    CHECK(presentBy(e), "heard before, 1st and 2nd shared, enough clean partials");
    e.clean = kMinCleanPartials - 1;
    CHECK(!presentBy(e), "one clean partial too few");
    e.clean = kMinCleanPartials;
    e.lowFound = false;
    CHECK(!presentBy(e), "no 1st or 2nd partial found at all");
}

TEST(aStringHeardBeforeIsHeldOnFourCleanPartialsInTheShortFrames) {
    // Neither its 1st nor its 2nd partial found (lost into a louder string's main lobe): held by the short
    // frames on kHeldCleanPartials clean ones, not on one fewer, not by the long frames, nor to start.
    PresenceEvidence e = sounding();
    e.lowest = 4;
    e.lowFound = false;
    e.wasHeard = true;
    e.shortFrames = true;
    e.clean = kHeldCleanPartials;
    CHECK(presentBy(e), "heard before, in the short frames, %zu clean partials", e.clean);
    e.clean = kHeldCleanPartials - 1;
    CHECK(!presentBy(e), "one clean partial too few");
    e.clean = kHeldCleanPartials;
    e.shortFrames = false;
    CHECK(!presentBy(e), "in the long frames");
    e.shortFrames = true;
    e.wasHeard = false;
    e.cleanLow = kHeldCleanPartials;
    CHECK(!presentBy(e), "not heard the hop before");
    e.wasHeard = true;
    e.clean = 0;
    e.onSeries = true;
    e.won = kHeldCleanPartials;
    CHECK(presentBy(e), "on another string's series, %zu partials won off its frequencies", e.won);
}

TEST(aStringStartsOnCleanPartialsOnlyAmongItsLowest) {
    PresenceEvidence e = sounding();
    e.lowest = 3;  // 1st and 2nd found but left to another string
    e.wasHeard = false;
    e.clean = e.cleanLow = kMinCleanPartials;
    CHECK(presentBy(e), "not heard before, enough clean partials up to the %dth", kCleanStartHighestPartial);
    e.cleanLow = kMinCleanPartials - 1;
    CHECK(!presentBy(e), "not heard before, one of them above the %dth", kCleanStartHighestPartial);
    e.wasHeard = true;
    CHECK(presentBy(e), "heard before: clean partials anywhere keep it");
    e.wasHeard = false;
    e.cleanLow = kMinCleanPartials;
    e.lowFound = false;
    CHECK(!presentBy(e), "no 1st or 2nd partial found at all");
}

TEST(aStringOnAnotherStringsSeriesCountsThePartialsItWinsFromItAsClean) {
    PresenceEvidence e = sounding();
    e.lowest = 3;  // 1st and 2nd found but left to another string
    e.wasHeard = false;
    e.clean = e.cleanLow = 1;
    e.won = e.wonLow = kMinCleanPartials - 1;
    e.onSeries = true;
    CHECK(presentBy(e), "on another string's series: one clean and %zu won partials start it", e.wonLow);
    e.onSeries = false;
    CHECK(!presentBy(e), "off any other string's series, won partials do not count");
    e.onSeries = true;
    e.wonLow = kMinCleanPartials - 2;
    CHECK(!presentBy(e), "one won partial too few up to the %dth", kCleanStartHighestPartial);
    e.wasHeard = true;
    CHECK(presentBy(e), "heard the hop before: won partials above the %dth count too", kCleanStartHighestPartial);
    e.won = kMinCleanPartials - 2;
    CHECK(!presentBy(e), "heard the hop before, one won partial too few");
    e.won = kMinCleanPartials;
    e.lowFound = false;
    CHECK(!presentBy(e), "no 1st or 2nd partial found at all");
}

TEST(aFundamentalWithinASemitoneOfTwoToEightTimesAnotherIsOnItsSeries) {
    const double e2 = 82.407, cents = kSeriesCents;
    auto at = [](double f, double c) { return f * std::exp2(c / 1200.0); };
    CHECK(onSeriesOf(at(3 * e2, -2), e2), "a guitar's B3 on its E2 (3 × E2 less 2 cents)");
    CHECK(onSeriesOf(4 * e2, e2) && onSeriesOf(2 * e2, e2) && onSeriesOf(kHighestNoteMultiple * e2, e2),
          "4, 2 and %d times", kHighestNoteMultiple);
    CHECK(onSeriesOf(at(3 * e2, cents - 1), e2) && onSeriesOf(at(3 * e2, 1 - cents), e2),
          "%.0f cents inside the bound, either side", cents - 1);
    CHECK(!onSeriesOf(at(3 * e2, cents + 1), e2) && !onSeriesOf(at(3 * e2, -cents - 1), e2),
          "%.0f cents outside it, either side", cents + 1);
    CHECK(!onSeriesOf(1.5 * e2, e2) && !onSeriesOf(e2 * 4 / 3, e2) && !onSeriesOf(2.25 * e2, e2),
          "a fifth, a fourth and a ninth above (a cello's and a bass's strings) are on no series");
    CHECK(!onSeriesOf(e2, 3 * e2), "a string under the other is not on its series");
    CHECK(!onSeriesOf(at((kHighestNoteMultiple + 1) * e2, 0), e2), "%d times is beyond the multiples checked",
          kHighestNoteMultiple + 1);
    CHECK(!onSeriesOf(0, e2) && !onSeriesOf(3 * e2, 0), "no reading is on no series");
}

TEST(oddPartialsPartialsOffEveryMthAndLevelAreBracketedAtTheirThresholds) {
    PresenceEvidence e = sounding();
    e.oddPeak = underDb(kOddUnderStrongestDb - 1);
    CHECK(presentBy(e), "odd partials %g dB under the strongest found", kOddUnderStrongestDb - 1);
    e.oddPeak = underDb(kOddUnderStrongestDb + 1);
    CHECK(!presentBy(e), "odd partials %g dB under the strongest found", kOddUnderStrongestDb + 1);
    e = sounding();
    e.nonMultiplePeak = underDb(kNonMultipleUnderStrongestDb - 1);
    CHECK(presentBy(e), "partials off every m-th %g dB under the strongest found", kNonMultipleUnderStrongestDb - 1);
    e.nonMultiplePeak = underDb(kNonMultipleUnderStrongestDb + 1);
    CHECK(!presentBy(e), "partials off every m-th %g dB under the strongest found", kNonMultipleUnderStrongestDb + 1);
    e = sounding();
    e.floor = underDb(kOwnOverFloorDb + 1);
    CHECK(presentBy(e), "own partials %g dB over the floor", kOwnOverFloorDb + 1);
    e.floor = underDb(kOwnOverFloorDb - 1);
    CHECK(!presentBy(e), "own partials %g dB over the floor", kOwnOverFloorDb - 1);
    e.wasHeard = true;
    CHECK(presentBy(e), "own partials %g dB over the floor, heard the hop before", kOwnOverFloorDb - 1);
    e = sounding();
    e.ownPeak = underDb(kUnderStrongestDb - 1);
    CHECK(presentBy(e), "own partials %g dB under the spectrum's strongest", kUnderStrongestDb - 1);
    e.ownPeak = underDb(kUnderStrongestDb + 1);
    CHECK(!presentBy(e), "own partials %g dB under the spectrum's strongest", kUnderStrongestDb + 1);
}

TEST(aStringFallingFarFasterThanTheSpectrumIsDamped) {
    PresenceEvidence e = sounding();
    e.spectrumFallDb = -1;
    e.ownFallDb = -1 - (kDampedFallDb - 1);
    CHECK(presentBy(e), "own partials %g dB further down than the spectrum", kDampedFallDb - 1);
    e.ownFallDb = -1 - (kDampedFallDb + 1);
    CHECK(!presentBy(e), "own partials %g dB further down than the spectrum", kDampedFallDb + 1);
    e.spectrumFallDb = 3;  // a rising spectrum: a new attack, whose spread in the older frame is no damping
    e.ownFallDb = 3 - (kDampedFallDb + 1);
    CHECK(presentBy(e), "a rising spectrum");
}
