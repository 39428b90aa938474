// PeriodTests.cpp — the NSDF of one window and the decision between the long and short windows.
#include "Check.hpp"
#include "Signals.hpp"

#include "../src/Nsdf.hpp"
#include "../src/PeriodDecision.hpp"

using namespace ctuner;

namespace {
constexpr double kFs = 24000;
Period periodOf(const std::vector<float> &x, std::size_t maxLag = 900) {
    Nsdf n(x.size(), 2, maxLag);
    return n.periodOf(x.data());
}
} // namespace

TEST(nsdfFindsTheFractionalPeriodOfAHarmonicTone) {
    const double f = 110.0;  // 218.18 samples
    Period p = periodOf(signals::partials(f, {1, 0.5, 0.3}, kFs, 2900));
    CHECK(std::abs(p.lag - kFs / f) < 0.05, "lag %g, want %g", p.lag, kFs / f);
    CHECK(p.clarity > 0.95, "clarity %g", p.clarity);
}

TEST(nsdfTakesTheFundamentalUnderAStrongSecondPartial) {
    // The 2nd partial 6 dB over the 1st: the half-period maximum is high, but the period's is the
    // highest and the first within kKeyMaximumRatio of it is still the period.
    const double f = 82.41;
    Period p = periodOf(signals::partials(f, {0.5, 1.0, 0.3}, kFs, 2900, 0, 1.1));
    CHECK(std::abs(signals::cents(kFs / p.lag, f)) < 5, "read %g Hz for %g", kFs / p.lag, f);
}

TEST(nsdfTakesTheHalfPeriodOnlyWhenItReachesTheKeyMaximumRatio) {
    // At the half period, partials 1 and 3 are in antiphase: n(T/2) ≈ (−a1² + a2² − a3²)/Σa². With
    // partials (0.3, 1, 0.1) that is 0.82 of the maximum at T, under kKeyMaximumRatio: the period
    // is T. With (0.2, 1, 0.05) it is 0.92: the half period is taken (the octave guard's case).
    const double f = 110.0;
    Period under = periodOf(signals::partials(f, {0.3, 1.0, 0.1}, kFs, 2900, 0, 0));
    CHECK(std::abs(signals::cents(kFs / under.lag, f)) < 5, "read %g Hz for %g", kFs / under.lag, f);
    Period over = periodOf(signals::partials(f, {0.2, 1.0, 0.05}, kFs, 2900, 0, 0));
    CHECK(std::abs(signals::cents(kFs / over.lag, 2 * f)) < 5, "read %g Hz for %g", kFs / over.lag, 2 * f);
}

TEST(nsdfGivesAMissingFundamentalItsOwnPeriod) {
    const double f = 110.0;
    Period p = periodOf(signals::partials(f, {0, 0.6, 0.5, 0.4, 0.3}, kFs, 2900));
    CHECK(std::abs(signals::cents(kFs / p.lag, f)) < 5, "read %g Hz for %g", kFs / p.lag, f);
}

TEST(nsdfIgnoresADcOffset) {
    std::vector<float> x = signals::sine(220, kFs, 2000);
    for (float &v : x) v += 0.7f;
    Period p = periodOf(x);
    CHECK(std::abs(signals::cents(kFs / p.lag, 220)) < 2, "read %g Hz", p.lag > 0 ? kFs / p.lag : 0.0);
}

TEST(nsdfFindsNoPeriodInSilence) {
    Period p = periodOf(std::vector<float>(2000, 0.0f));
    CHECK(p.lag == 0, "lag %g", p.lag);
}

namespace {
PeriodInputs inputs(double longHz, double longClarity, double shortHz, double shortClarity, double previous) {
    return {{longHz > 0 ? kFs / longHz : 0, longClarity}, {shortHz > 0 ? kFs / shortHz : 0, shortClarity}, 360,
            previous, kFs};
}
} // namespace

TEST(periodDecisionTakesTheLongWindowWhenBothAgree) {
    Period p = decidePeriod(inputs(110, 0.97, 110.5, 0.95, 110));
    CHECK(std::abs(kFs / p.lag - 110) < 1e-9, "got %g Hz", p.lag > 0 ? kFs / p.lag : 0.0);
}

TEST(periodDecisionTakesAClearNewNoteFromTheShortWindow) {
    // Bracketed: at kNewNoteClarity the short window's note is taken; just under it, with the long
    // window still on the old note, the windows disagree and no period is reported.
    Period taken = decidePeriod(inputs(110, 0.85, 330, kNewNoteClarity, 110));
    CHECK(taken.lag > 0 && std::abs(kFs / taken.lag - 330) < 1e-9, "got %g", taken.lag);
    Period none = decidePeriod(inputs(110, 0.85, 330, kNewNoteClarity - 0.01, 110));
    CHECK(none.lag == 0, "a period while the windows disagree: %g Hz", none.lag > 0 ? kFs / none.lag : 0.0);
}

TEST(periodDecisionReportsNothingWhileTheWindowsDisagreeClearly) {
    // Bracketed at kChangingClarity: just over, nothing; just under, the long window (here the
    // octave of the note read last, which is not another note).
    Period none = decidePeriod(inputs(220, 0.95, 330, kChangingClarity + 0.01, 110));
    CHECK(none.lag == 0, "got %g Hz", none.lag > 0 ? kFs / none.lag : 0.0);
    Period kept = decidePeriod(inputs(220, 0.95, 330, kChangingClarity - 0.01, 110));
    CHECK(kept.lag > 0 && std::abs(kFs / kept.lag - 220) < 1e-9, "got %g", kept.lag);
}

TEST(periodDecisionKeepsALowNoteWhoseHarmonicTheShortWindowHears) {
    // 30.87 Hz (B0: 777 samples) is beyond the short window's reach (360); it heard the 3rd partial.
    Period p = decidePeriod(inputs(30.87, 0.9, 92.61, 0.95, 30.87));
    CHECK(p.lag > 0 && std::abs(kFs / p.lag - 30.87) < 1e-9, "got %g", p.lag);
}

TEST(periodDecisionHoldsBackACommonSubharmonicUntilTheShortWindowIsSure) {
    // After A4 → D4 both windows can hear D3, a subharmonic of the A4 just read: taken at clarity
    // kNewNoteClarity, not at kNewNoteClarity − 0.01; another note that is no subharmonic needs only
    // kChangingClarity.
    const double a4 = 440, d3 = 146.83;
    CHECK(decidePeriod(inputs(d3, 0.95, d3, kNewNoteClarity - 0.01, a4)).lag == 0, "D3 taken while unsure");
    CHECK(decidePeriod(inputs(d3, 0.95, d3, kNewNoteClarity, a4)).lag > 0, "D3 refused while sure");
    CHECK(decidePeriod(inputs(349.2, 0.95, 349.2, kChangingClarity, a4)).lag > 0, "F4 refused at 0.8");
    CHECK(decidePeriod(inputs(349.2, 0.95, 349.2, kChangingClarity - 0.01, a4)).lag == 0, "F4 taken under 0.8");
}
