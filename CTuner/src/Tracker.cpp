// Tracker.cpp — see Tracker.hpp.
#include "Tracker.hpp"

#include "Arithmetic.hpp"
#include "OctaveGuard.hpp"
#include "OnsetGuard.hpp"
#include "PeriodDecision.hpp"

#include <algorithm>
#include <cmath>

namespace ctuner {
namespace {
/// Digital silence reads −120 dBFS (and anything under 1e-12 of full-scale power).
constexpr double kSilenceDb = -120.0;
} // namespace

Tracker::Tracker(const Geometry &g)
    : g_(g), long_(g.nsdfWindow, g.minLag, g.maxLag), short_(g.shortWindow, g.minLag, g.shortMaxLag),
      spectra_(g.fs, g.frameMin, g.frameMax), partials_(g.frameMin, g.frameMax),
      rise_(double(g.hop) / g.fs) {}

double Tracker::previousFrequency(unsigned long long consumed) const {
    if (memory_.lastFrequency > 0) return memory_.lastFrequency;
    return consumed - memory_.recentAt < (unsigned long long)(kDropoutSeconds * g_.fs) ? memory_.recentFrequency : 0;
}

/// The octave guard's factor (×1 or ×½) for `coarse`, asked again when the period moved or its
/// answer is kOctaveRecheckSeconds old.
double Tracker::guardOctave(const Ring &history, unsigned long long consumed, double coarse) {
    TrackerMemory &m = memory_;
    const bool same = m.checkedCoarse > 0 && std::abs(1200.0 * std::log2(coarse / m.checkedCoarse)) < kOctaveRecheckCents;
    const std::size_t recheck = std::max<std::size_t>(1, std::size_t(kOctaveRecheckSeconds * g_.fs / double(g_.hop)));
    if (!same || ++m.hopsSinceOctaveCheck >= recheck) {
        const double previous = previousFrequency(consumed);
        m.octaveFactor = subharmonicPresent(spectra_, history, g_.frameMin, g_.frameMax, coarse, previous) ? 0.5 : 1.0;
        m.checkedCoarse = coarse;
        m.hopsSinceOctaveCheck = 0;
    }
    return m.octaveFactor;
}

HopState Tracker::analyse(const Ring &history, const Ring &decimated, unsigned long long consumed, ct_result &r) {
    r = ct_result{};
    r.time = double(consumed) / g_.fs;
    double frequency = 0;
    const HopState state = hop(history, decimated, consumed, r, frequency);
    TrackerMemory &m = memory_;
    switch (state) {
    case HopState::Pitched:
        m.lastFrequency = frequency;
        m.recentFrequency = frequency;
        m.recentAt = consumed;
        r.has_pitch = 1;
        r.frequency = frequency;
        break;
    case HopState::NotFinite:
        break;
    default:
        m.lastFrequency = 0;
        break;
    }
    // The onset: a periodicity break over the ringing note (set in hop) or the level rising; a break
    // and the rise of the level after it are one attack.
    if (rise_.process(r.time, r.level_db, r.onset != 0)) r.onset = 1;
    return state;
}

HopState Tracker::hop(const Ring &history, const Ring &decimated, unsigned long long consumed, ct_result &r,
                      double &frequency) {
    TrackerMemory &m = memory_;
    const float *recent = history.latest(g_.levelWindow);
    double power = sumOfSquares(recent, g_.levelWindow) / double(g_.levelWindow);
    r.level_db = power > 1e-12 ? std::max(kSilenceDb, 10.0 * std::log10(power)) : kSilenceDb;
    if (r.level_db < g_.gateDb) return HopState::Quiet;

    if (m.lastFrequency > 0) {
        const std::size_t hopDecimated = std::size_t(std::lround(double(g_.hop) / double(g_.decimation)));
        const Break b = periodicityBreak(decimated, g_.fsDecimated, hopDecimated, g_.decimation, consumed, m.lastFrequency);
        if (b.found) {
            m.hadBreak = true;
            m.breakAt = b.at;
            if (isAttack(b)) r.onset = 1;
        }
    }

    const Period chosen = decidePeriod({long_.periodOf(decimated.latest(g_.nsdfWindow)),
                                        short_.periodOf(decimated.latest(g_.shortWindow)), g_.shortMaxLag,
                                        previousFrequency(consumed), g_.fsDecimated});
    r.confidence = std::max(0.0, std::min(1.0, chosen.clarity));
    if (chosen.lag <= 0 || chosen.clarity < kMinClarity) return HopState::NoPeriod;
    double coarse = g_.fsDecimated / chosen.lag;
    if (coarse < g_.minFrequency * kRangeLow || coarse > g_.maxFrequency * kRangeHigh)
        return HopState::OutOfRange;
    if (coarse > kMaxOfDecimatedRate * g_.fsDecimated) return HopState::OutOfRange;
    if (coarse / 2 >= g_.minFrequency * kRangeLow) coarse *= guardOctave(history, consumed, coarse);

    if (m.lastFrequency <= 0 || std::abs(1200.0 * std::log2(coarse / m.lastFrequency)) > kHeldNoteCents) {
        m.heldSince = consumed;
    }
    const Refinement refined = partials_.refine(spectra_, history, coarse, std::size_t(consumed - m.heldSince));
    if (refined.outcome == Refinement::Outcome::OctaveLow) return HopState::OctaveLow;
    frequency = coarse;
    if (refined.outcome == Refinement::Outcome::Measured && refined.frequency > 0) {
        if (std::abs(std::log2(refined.frequency / coarse)) > kStagesAgreeOctaves) return HopState::StagesDisagree;
        frequency = refined.frequency;
    }
    if (!std::isfinite(frequency) || frequency <= 0) return HopState::NotFinite;
    // After an attack the long window holds mostly what sounded before it, and may still read the old
    // string (or, when the new note is a harmonic of the old one, the two together). Until it has
    // heard past the attack, a reading is taken only if the sound since the attack repeats at its
    // period and not at a half or a third of it.
    if (m.hadBreak) {
        const unsigned long long since = consumed - m.breakAt;
        if (since >= g_.nsdfWindow * g_.decimation) {
            m.hadBreak = false;
        } else if (!heardSinceBreak(decimated, g_.fsDecimated, frequency, std::size_t(since / g_.decimation))) {
            return HopState::UnheardSinceAttack;
        }
    }
    return HopState::Pitched;
}

} // namespace ctuner
