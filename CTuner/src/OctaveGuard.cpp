// OctaveGuard.cpp — see OctaveGuard.hpp.
#include "OctaveGuard.hpp"

#include "Geometry.hpp"

#include <algorithm>
#include <cmath>

namespace ctuner {
namespace {
/// The frame must hold 5 periods of coarse/2 (else it cannot resolve them).
constexpr double kMinPeriodsInFrame = 5.0;
/// Peaks are looked for within 2 % of where they belong, and at least 1.5 bins (2 bins for the
/// strongest of partials 1…4 of coarse).
constexpr double kPeakRadius = 0.02, kPeakRadiusBins = 1.5, kStrongestRadiusBins = 2.0;
/// Partial 1 of coarse/2 within 20 cents of half the partial at coarse itself (coarse is only good to
/// a few cents); partial 3 within −20…+25 cents of 1.5 times it (real strings are stiff and their
/// weak partials hard to place exactly). A bass's body thump near coarse/2 (FluidR3's acoustic bass
/// G2: 48.4 Hz with a "third" 33 cents off) does not line up so.
constexpr double kFirstCents = 20.0, kThirdFlatCents = -20.0, kThirdSharpCents = 25.0;
/// Once a string reads at coarse/2 its weak third partial need only be within ±50 cents: interpolated
/// 20–40 dB down on a six-period frame, it can measure 20 cents off (FluidR3's steel guitar E2 read E3
/// for 50 ms in mid-note so; BENCHMARKS.md, "Instrument gross in steady state").
constexpr double kThirdCentsWhileBelow = 50.0;
/// "Was reading at coarse/2": the note read last within 0.05 octave (60 cents) of it.
constexpr double kWasBelowOctaves = 0.05;
/// Both partials at least 10× (20 dB) over the noise floor …
constexpr double kOverFloor = 10.0;
/// … and, against the strongest of partials 1…4 of coarse: −30 / −40 dB (first / third), or −40 /
/// −50 dB once the string reads at coarse/2 (hysteresis as its fundamental fades).
constexpr double kFirstUnderStrongest = 0.0316, kThirdUnderStrongest = 0.01;
constexpr double kFirstUnderStrongestWhileBelow = 0.01, kThirdUnderStrongestWhileBelow = 0.00316;
/// Once a string reads at coarse/2 its fundamental may fade out altogether while its odd partials ring
/// on: then partials 3 and 5 of coarse/2 — each held to the third's conditions while below (±50 cents,
/// −50 dB under the strongest, 20 dB over the floor) — keep the octave the note started in. Guards
/// against a pizzicato cello C2 (fundamental ~22 dB under its 2nd partial at the pluck, fading faster
/// than the rest) reading C3 once its fundamental is gone: a synthetic model of it
/// read C2 from 0.12 s and C3 from 0.6–3.2 s on; with this, where its odd partials are 10–20 dB down,
/// from 2.7–3.5 s or not at all (30 dB down: unchanged); no public
/// file's reading moved (BENCHMARKS.md, "Accuracy where it was not tuned"). Never at a note's start:
/// there partial 1 is required, so a body thump or a neighbouring note cannot lower the octave;
/// partials 3 and 5 are those a 2f note has none of. Its cost: a note whose start was already read an
/// octave low stays there longer (the holdout's soft ukulele C5).
constexpr int kOddContinuationPartial = 5;

/// Partials 3 and kOddContinuationPartial of coarse/2 where partial 2 (`second`) puts them.
bool oddPartialsRingOn(SpectralFrames &spectra, const Peak &second, double half, double strongest, double floor,
                       double binHz, std::size_t bins) {
    if (second.magnitude <= 0 || strongest <= 0) return false;
    for (int k : {3, kOddContinuationPartial}) {
        const Peak p = spectra.peakAt(k * half, std::max(kPeakRadiusBins * binHz, kPeakRadius * k * half), binHz, bins);
        if (p.magnitude <= 0) return false;
        const double cents = 1200.0 * std::log2(p.frequency / (0.5 * k * second.frequency));
        if (std::abs(cents) > kThirdCentsWhileBelow) return false;
        if (p.magnitude < kOverFloor * floor || p.magnitude < kThirdUnderStrongestWhileBelow * strongest) return false;
    }
    return true;
}
} // namespace

bool subharmonicPresent(SpectralFrames &spectra, const Ring &history, std::size_t frameMin, std::size_t frameMax,
                        double coarse, double previous) {
    const double fs = spectra.fs();
    const double half = coarse / 2;
    std::size_t L = std::size_t(std::ceil(kFramePeriods * fs / half));
    L = std::max(frameMin, std::min(frameMax, L));
    if (half * double(L) / fs < kMinPeriodsInFrame) return false;
    RealFFT &f = spectra.fftFor(L);
    const std::size_t bins = f.size / 2 + 1;
    const double binHz = fs / double(f.size);
    spectra.frame(f, history, L);
    const double floor = spectra.noiseFloor(bins, binHz);
    double strongest = 0;
    for (int k = 1; k <= 4; ++k)
        strongest = std::max(strongest,
                             spectra.peakAt(k * coarse, std::max(kStrongestRadiusBins * binHz, kPeakRadius * k * coarse), binHz, bins).magnitude);
    const Peak second = spectra.peakAt(coarse, std::max(kPeakRadiusBins * binHz, kPeakRadius * coarse), binHz, bins);
    const Peak firstPeak = spectra.peakAt(half, std::max(kPeakRadiusBins * binHz, kPeakRadius * half), binHz, bins);
    const Peak thirdPeak = spectra.peakAt(3 * half, std::max(kPeakRadiusBins * binHz, kPeakRadius * 3 * half), binHz, bins);
    const bool wasBelow = previous > 0 && std::abs(std::log2(half / previous)) < kWasBelowOctaves;
    // What a string already reading at coarse/2 still has when partials 1 and 3 do not do.
    auto ringingOn = [&] { return wasBelow && oddPartialsRingOn(spectra, second, half, strongest, floor, binHz, bins); };
    if (second.magnitude <= 0 || firstPeak.magnitude <= 0 || thirdPeak.magnitude <= 0) return ringingOn();
    double firstCents = 1200.0 * std::log2(firstPeak.frequency / (second.frequency / 2));
    double thirdCents = 1200.0 * std::log2(thirdPeak.frequency / (1.5 * second.frequency));
    if (std::abs(firstCents) > kFirstCents) return ringingOn();
    if (wasBelow ? std::abs(thirdCents) > kThirdCentsWhileBelow : (thirdCents < kThirdFlatCents || thirdCents > kThirdSharpCents))
        return ringingOn();
    const double first = firstPeak.magnitude, third = thirdPeak.magnitude;
    if (strongest <= 0 || first < kOverFloor * floor || third < kOverFloor * floor) return ringingOn();
    if (wasBelow)
        return (first >= kFirstUnderStrongestWhileBelow * strongest && third >= kThirdUnderStrongestWhileBelow * strongest) ||
               ringingOn();
    return first >= kFirstUnderStrongest * strongest && third >= kThirdUnderStrongest * strongest;
}

} // namespace ctuner
