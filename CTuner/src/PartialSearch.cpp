// PartialSearch.cpp — see PartialSearch.hpp.
#include "PartialSearch.hpp"

#include "Geometry.hpp"
#include "LoneSinusoid.hpp"

#include <algorithm>
#include <cmath>

namespace ctuner {
namespace {
/// Partials 1…24 are looked for, below min(0.45·fs, 8 kHz).
constexpr int kMaxPartial = 24;
constexpr double kPartialLimitHz = 8000.0;
constexpr double kPartialLimitOfRate = 0.45;
/// Where partial k is looked for: within this fraction of its predicted frequency — 3 % for the
/// first one taken (the period is good to a few percent), 0.6 % while fewer than three are fitted,
/// then 0.3 % — but never closer than kMinRadiusBins (the window's main lobe) nor farther than
/// kMaxRadiusOfF1·f1 (the next partial).
constexpr double kFirstRadius = 0.03, kFewRadius = 0.006, kFittedRadius = 0.003;
constexpr double kMinRadiusBins = 3.0;
constexpr double kMaxRadiusOfF1 = 0.3;
/// The first partial taken must lie within 3 % of where the period puts it: FluidR3's overdriven E2
/// has a stray peak at 97 Hz beside its weak fundamental; taken, it sent the search astray, and 15 of
/// 112 steady hops read nothing (BENCHMARKS.md, "voicing misses"). A rescanned partial must lie as
/// close to the fit (else a stray peak was taken again: the test
/// aStrayPeakBesideAWeakFundamentalIsNotTakenForIt, 5.5 ¢ off).
constexpr double kFirstPartialTolerance = 0.03;
/// A fundamental whose phase advance missed that test but whose magnitude peak is within half a bin
/// is kept aside and measured as a lone sine if nothing else is found (just after an onset, and a
/// low sine in 0 dB noise: a D1 sine read 61–70 ¢ sharp on 3 hops without it).
constexpr double kAsideBins = 0.5;
/// Rescans of all the partials where the fit of all of them puts them, until the set settles: 97 %
/// of the instrument hops that rescan settle on the first, 0.3 % still change after the fourth, and
/// 8 passes read the same as 4 (BENCHMARKS.md, 69ca058).
constexpr int kMaxRescans = 4;
/// Odd partials all this far (30 dB) under the even ones: the sound repeats at twice the period
/// chosen. A string's fundamental can sit 26 dB under its 2nd partial (FluidR3's nylon E2), but then
/// its 3rd and 5th partials are there.
constexpr double kOddUnderEven = 0.0316;
/// The lone-sine estimate is taken when within 3 bins (the main lobe) of the phase vocoder's.
constexpr double kLoneSineAgreementBins = 3.0;

bool sameNumbers(const std::vector<Partial> &a, const std::vector<Partial> &b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const Partial &x, const Partial &y) { return x.k == y.k; });
}
} // namespace

PartialSearch::PartialSearch(std::size_t frameMin, std::size_t frameMax) : frameMin_(frameMin), frameMax_(frameMax) {
    partials_.reserve(64);
    rescan_.reserve(64);
}

Refinement PartialSearch::refine(SpectralFrames &spectra, const Ring &history, double coarse, std::size_t heldFor) {
    const double fs = spectra.fs();
    std::size_t L = std::size_t(std::ceil(kFramePeriods * fs / coarse));
    L = std::max(frameMin_, std::min(frameMax_, L));
    const std::size_t D = std::max(L / 2, std::min(L, heldFor));
    RealFFT &f = spectra.fftFor(L);
    const std::size_t M = f.size, bins = M / 2 + 1;
    const double binHz = fs / double(M);
    spectra.framePair(f, history, L, D);
    const double floor = spectra.noiseFloor(bins, binHz);
    const std::vector<float> &magnitudes = spectra.magnitudes();
    std::vector<Partial> &partials = partials_;

    const double limit = std::min(kPartialLimitOfRate * fs, kPartialLimitHz);
    partials.clear();
    StiffString fit{coarse, 0};
    const std::size_t limitBin = std::min(bins - 1, std::size_t(limit / binHz));
    const double strongest = *std::max_element(magnitudes.begin() + 1, magnitudes.begin() + limitBin + 1);
    auto searchRadius = [&](double predicted, double relative) {
        return std::min(std::max(kMinRadiusBins * binHz, predicted * relative), kMaxRadiusOfF1 * fit.f1);
    };
    // First pass, partial by partial: each is looked for where the fit of those found so far puts
    // it, within a radius that narrows as they add up.
    Partial aside{0, 0, 0};  // a fundamental's peak whose phase advance was off
    for (int k = 1; k <= kMaxPartial; ++k) {
        const double predicted = seriesAt(k, fit);
        if (predicted > limit) break;
        double relative = partials.empty() ? kFirstRadius : (partials.size() < 3 ? kFewRadius : kFittedRadius);
        const double radius = searchRadius(predicted, relative);
        const Candidate c = spectra.candidateNear(f, D, predicted, radius, binHz, floor, strongest);
        if (c.bin < 0 || std::abs(c.frequency - predicted) > radius) continue;
        // The first partial taken decides where all the others are looked for: its peak is searched
        // over the window's main lobe, but its frequency must be near where the period put it.
        if (partials.empty() && std::abs(c.frequency - predicted) > kFirstPartialTolerance * predicted) {
            const double at = spectra.interpolatedPeak(c.bin) * binHz;
            if (k == 1 && std::abs(at - predicted) <= std::max(kAsideBins * binHz, kFirstPartialTolerance * predicted))
                aside = {1, at, c.magnitude};
            continue;
        }
        partials.push_back({k, c.frequency, c.magnitude});
        fit = fitPartials(partials.data(), partials.size(), fit);
    }
    // Then all partials again, each looked for where the fit of all of them puts it, until the set
    // stops changing (a set that swaps back and forth keeps the last). The first pass depends on the
    // order it met them in: FluidR3's overdriven A2 has its fundamental 30 ¢ flat of its 3rd–5th
    // partials and its high ones 20–35 ¢ sharp, which pull the period 25 ¢ sharp, so its fundamental
    // was passed over on some hops and not on others; a render and its resampled copy read up to
    // 0.3 ¢ apart in median (BENCHMARKS.md, 69ca058: instrument p95 0.214 → 0.1985 ¢).
    for (int pass = 0; pass < kMaxRescans && partials.size() >= 3; ++pass) {
        rescan_.clear();
        for (int k = 1; k <= kMaxPartial; ++k) {
            const double predicted = seriesAt(k, fit);
            if (predicted > limit) break;
            const double radius = searchRadius(predicted, kFittedRadius);
            const Candidate c = spectra.candidateNear(f, D, predicted, radius, binHz, floor, strongest);
            if (c.bin >= 0 && std::abs(c.frequency - predicted) <= std::min(radius, kFirstPartialTolerance * predicted))
                rescan_.push_back({k, c.frequency, c.magnitude});
        }
        if (rescan_.size() < 3) break;
        const bool settled = sameNumbers(rescan_, partials);
        partials.swap(rescan_);
        fit = fitPartials(partials.data(), partials.size(), fit);
        if (settled) break;
    }
    if (partials.empty() && aside.k == 1) {
        partials.push_back(aside);
        fit.f1 = aside.frequency;
    }
    if (partials.empty()) return {};
    double odd = 0, even = 0;
    for (const Partial &p : partials) {
        double &loudest = p.k % 2 ? odd : even;
        loudest = std::max(loudest, p.magnitude);
    }
    if (even > 0 && odd < kOddUnderEven * even) return {Refinement::Outcome::OctaveLow, 0};
    if (partials.size() == 1 && partials.front().k == 1) {
        // A lone sinusoid: no neighbour can leak into it, so it is measured again by maximum
        // likelihood over all L + D samples the frame pair spans.
        const std::size_t N = L + D;
        double frequency = loneSinusoidFrequency(history.latest(N), N, fit.f1, fs);
        if (std::abs(frequency - fit.f1) < kLoneSineAgreementBins * binHz) fit.f1 = frequency;
    }
    return {Refinement::Outcome::Measured, fit.f1};
}

} // namespace ctuner
