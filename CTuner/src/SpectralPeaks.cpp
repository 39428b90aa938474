// SpectralPeaks.cpp — see SpectralPeaks.hpp.
#include "SpectralPeaks.hpp"

#include "Arithmetic.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace ctuner {
namespace {
/// A partial's peak must be 8× (18 dB) above the noise floor (the median magnitude): a noise bin's
/// magnitude is Rayleigh-distributed and exceeds 8× its median with probability ~e^-44.
constexpr double kPartialOverFloor = 8.0;
/// … and no more than 60 dB under the strongest peak: the window's sidelobes (−92 dB) and the
/// strong partials' skirts are not partials.
constexpr double kPartialUnderStrongest = 1e-3;
} // namespace

SpectralFrames::SpectralFrames(double fs, std::size_t frameMin, std::size_t frameMax)
    : fs_(fs), windows_(frameMax) {
    for (std::size_t n = nextPow2(frameMin); n <= nextPow2(frameMax); n <<= 1)
        ffts_.emplace_back(new RealFFT(n, false));
    const std::size_t biggest = nextPow2(frameMax);
    previousSpectrum_.resize(2 * (biggest / 2 + 1));
    magnitudes_.resize(biggest / 2 + 1);
    scratch_.resize(biggest / 2 + 1);
    floorCounts_.assign(std::size_t(1) << 12, 0);
    vocoded_.assign(biggest / 2 + 1, 0.0);
    vocodedStamp_.assign(biggest / 2 + 1, 0);
}

void SpectralFrames::forgetVocoded() const {
    if (++stamp_ == 0) {  // after 2^32 spectra: no stale stamp may match again
        std::fill(vocodedStamp_.begin(), vocodedStamp_.end(), 0u);
        stamp_ = 1;
    }
}

RealFFT &SpectralFrames::fftFor(std::size_t length) {
    std::size_t want = nextPow2(length);
    for (auto &f : ffts_)
        if (f->size >= want) return *f;
    return *ffts_.back();
}

void SpectralFrames::spectrum(RealFFT &f, const Ring &history, const float *window, std::size_t L,
                              std::size_t back) {
    forgetVocoded();
    const float *x = history.latest(L, back);
    for (std::size_t n = 0; n < L; ++n) f.in[n] = x[n] * window[n];
    f.padFrom(L);
    fftwf_execute(f.forward);
}

void SpectralFrames::frame(RealFFT &f, const Ring &history, std::size_t L) {
    spectrum(f, history, windows_.get(L), L, 0);
    magnitudesOf(f, f.size / 2 + 1);
}

void SpectralFrames::framePair(RealFFT &f, const Ring &history, std::size_t L, std::size_t D) {
    const std::size_t bins = f.size / 2 + 1;
    const float *window = windows_.get(L);
    spectrum(f, history, window, L, D);
    // Only the analysed bins (and a margin): no peak is looked for above them.
    std::memcpy(previousSpectrum_.data(), f.out, std::min(bins, analysedBins(f, bins) + 8) * sizeof(fftwf_complex));
    spectrum(f, history, window, L, 0);
    magnitudesOf(f, bins);
}

void SpectralFrames::magnitudesOf(const RealFFT &f, std::size_t bins) {
    const std::size_t n = analysedBins(f, bins);
    for (std::size_t i = 0; i < n; ++i)
        magnitudes_[i] = std::sqrt(f.out[i][0] * f.out[i][0] + f.out[i][1] * f.out[i][1]);
    if (magnitudesDirty_ > n) std::fill(magnitudes_.begin() + n, magnitudes_.begin() + magnitudesDirty_, 0.0f);
    magnitudesDirty_ = n;
}

std::size_t SpectralFrames::analysedBins(const RealFFT &f, std::size_t bins) const {
    return std::min(bins, std::size_t(std::min(0.5 * fs_, kAnalysedHz) * double(f.size) / fs_) + 4);
}

double SpectralFrames::noiseFloor(std::size_t bins, double binHz) {
    const std::vector<float> &magnitudes = magnitudes_;
    std::size_t n = std::min(bins, std::size_t(std::min(kNoiseFloorHz, fs_ / 2) / binHz) + 1);
    // The n/2-th smallest by radix selection (exactly what nth_element gives, without its
    // unpredictable branches): non-negative floats order like their bit patterns, so a histogram
    // of the top 12 bits finds the bucket that holds it, and only that bucket is selected in.
    const std::size_t k = n / 2;
    auto key = [](float v) {
        std::uint32_t bits;
        std::memcpy(&bits, &v, sizeof bits);
        return bits >> 20;
    };
    std::uint32_t low = ~0u, high = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint32_t b = key(magnitudes[i]);
        ++floorCounts_[b];
        low = std::min(low, b);
        high = std::max(high, b);
    }
    std::uint32_t bucket = low;
    std::size_t below = 0;
    while (below + floorCounts_[bucket] <= k) below += floorCounts_[bucket++];
    std::fill(floorCounts_.begin() + low, floorCounts_.begin() + high + 1, 0u);
    std::size_t c = 0;
    for (std::size_t i = 0; i < n; ++i) {
        scratch_[c] = magnitudes[i];
        c += key(magnitudes[i]) == bucket;
    }
    std::nth_element(scratch_.begin(), scratch_.begin() + (k - below), scratch_.begin() + c);
    return scratch_[k - below];
}

Peak SpectralFrames::peakAt(double centre, double radius, double binHz, std::size_t bins) const {
    const std::vector<float> &magnitudes = magnitudes_;
    long lo = std::max(2L, long(std::floor((centre - radius) / binHz)));
    long hi = std::min(long(bins) - 3, long(std::ceil((centre + radius) / binHz)));
    long best = -1;
    for (long i = lo; i <= hi; ++i)
        if (magnitudes[i] > magnitudes[i - 1] && magnitudes[i] >= magnitudes[i + 1] &&
            (best < 0 || magnitudes[i] > magnitudes[best]))
            best = i;
    if (best < 0) return {};
    return {interpolatedPeak(best) * binHz, double(magnitudes[best])};
}

/// A parabola through the log-magnitudes of the peak and its two neighbours (exact for a Gaussian
/// main lobe; a small fraction of a bin off for the Blackman–Harris one).
double SpectralFrames::interpolatedPeak(long peak) const {
    const std::vector<float> &magnitudes = magnitudes_;
    double a = std::log(magnitudes[peak - 1] + 1e-30), b = std::log(magnitudes[peak] + 1e-30),
           c = std::log(magnitudes[peak + 1] + 1e-30);
    double denom = a - 2 * b + c;
    return double(peak) + (denom < 0 ? std::max(-0.5, std::min(0.5, 0.5 * (a - c) / denom)) : 0.0);
}

/// The advance is known only modulo 2π, so it is unwrapped around the peak's position interpolated
/// on the log-magnitudes (within a small fraction of a bin, far inside the ±M/(2D) bins it must be).
double SpectralFrames::phaseVocoder(const RealFFT &f, long peak, std::size_t D) const {
    if (&f != vocodedFft_ || D != vocodedD_) {
        forgetVocoded();
        vocodedFft_ = &f;
        vocodedD_ = D;
    }
    const std::size_t bin = std::size_t(peak);
    if (vocodedStamp_[bin] == stamp_) return vocoded_[bin];
    const std::vector<float> &older = previousSpectrum_;
    double omegaRef = 2.0 * kPi * interpolatedPeak(peak) / double(f.size);
    double phaseNew = std::atan2(f.out[peak][1], f.out[peak][0]);
    double phaseOld = std::atan2(older[2 * peak + 1], older[2 * peak]);
    double deviation = princarg(phaseNew - phaseOld - omegaRef * double(D));
    vocodedStamp_[bin] = stamp_;
    return vocoded_[bin] = (omegaRef + deviation / double(D)) * fs_ / (2.0 * kPi);
}

double SpectralFrames::olderMagnitude(long bin) const {
    if (bin < 0 || std::size_t(2 * bin + 1) >= previousSpectrum_.size()) return 0;
    return std::hypot(double(previousSpectrum_[2 * bin]), double(previousSpectrum_[2 * bin + 1]));
}

double SpectralFrames::largestNear(double frequency, double binHz, std::size_t bins) const {
    const long centre = long(std::lround(frequency / binHz));
    if (centre < 2 || centre > long(bins) - 3) return 0;
    return std::max({magnitudes_[centre - 1], magnitudes_[centre], magnitudes_[centre + 1]});
}

double SpectralFrames::magnitudeAt(double frequency, double binHz, std::size_t bins) const {
    const double at = frequency / binHz;
    const long below = long(std::floor(at));
    if (below < 2 || below > long(bins) - 3) return 0;
    const double t = at - double(below);
    return (1 - t) * magnitudes_[below] + t * magnitudes_[below + 1];
}

double SpectralFrames::olderPower(long bin) const {
    if (bin < 0 || std::size_t(2 * bin + 1) >= previousSpectrum_.size()) return 0;
    const double re = previousSpectrum_[2 * bin], im = previousSpectrum_[2 * bin + 1];
    return re * re + im * im;
}

Candidate SpectralFrames::candidateNear(const RealFFT &f, std::size_t D, double predicted, double radius,
                                        double binHz, double floor, double strongest) const {
    const std::vector<float> &magnitudes = magnitudes_;
    const std::size_t bins = f.size / 2 + 1;
    const long lo = std::max(2L, long(std::floor((predicted - radius) / binHz)));
    const long hi = std::min(long(bins) - 3, long(std::ceil((predicted + radius) / binHz)));
    if (hi <= lo) return {};
    long peak = lo;
    for (long i = lo + 1; i <= hi; ++i)
        if (magnitudes[i] > magnitudes[peak]) peak = i;
    if (peak == lo || peak == hi) return {};
    const double mag = magnitudes[peak];
    if (mag < kPartialOverFloor * floor || mag < kPartialUnderStrongest * strongest) return {};
    return {peak, mag, phaseVocoder(f, peak, D)};
}

Candidate SpectralFrames::localPeakNear(const RealFFT &f, std::size_t D, double predicted, double radius,
                                        double binHz, double floor, double strongest, double overFloor) const {
    const std::size_t bins = f.size / 2 + 1;
    const Peak p = peakAt(predicted, radius, binHz, bins);
    if (p.magnitude <= 0) return {};
    if (p.magnitude < overFloor * floor || p.magnitude < kPartialUnderStrongest * strongest) return {};
    const long peak = long(std::lround(p.frequency / binHz));
    return {peak, double(magnitudes_[peak]), phaseVocoder(f, peak, D)};
}

} // namespace ctuner
