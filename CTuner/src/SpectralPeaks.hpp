// SpectralPeaks.hpp — windowed spectra of the newest input, their noise floor, and the frequency of a
// peak by its phase advance between two frames (the phase vocoder).
//
// J. L. Flanagan and R. M. Golden, "Phase Vocoder", Bell Syst. Tech. J. 45, 1966; M. S. Puckette and
// J. C. Brown, "Accuracy of frequency estimates using the phase vocoder", IEEE Trans. Speech Audio
// Process. 6(2), 1998. For one exponentially decaying sinusoid the advance over D samples is exactly
// ω·D, so a plucked, fading string is measured without bias.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "RealFft.hpp"
#include "Ring.hpp"
#include "WindowCache.hpp"

namespace ctuner {

/// Nothing above this is analysed (peaks, the noise floor's median): the partials that carry a
/// string's pitch are below it, and the FFT bins above it are not read.
constexpr double kAnalysedHz = 8200.0;
/// The noise floor is the median magnitude up to this frequency.
constexpr double kNoiseFloorHz = 8000.0;

struct Peak {
    double frequency = 0;  // Hz, interpolated on the log-magnitudes
    double magnitude = 0;
};

/// A peak looked for as a partial: its bin (−1 when none), magnitude and phase-vocoder frequency.
struct Candidate {
    long bin = -1;
    double magnitude = 0;
    double frequency = 0;
};

class SpectralFrames {
public:
    /// Frames of frameMin…frameMax samples at `fs`: one FFT plan per power of two in that range, the
    /// window cache and the spectra, all made here.
    SpectralFrames(double fs, std::size_t frameMin, std::size_t frameMax);

    /// The FFT a frame of L samples is zero-padded into.
    RealFFT &fftFor(std::size_t length);

    /// One Blackman–Harris frame of the newest L samples of `history`: its spectrum into `f.out`,
    /// its magnitudes into magnitudes().
    void frame(RealFFT &f, const Ring &history, std::size_t L);
    /// The frame pair of the phase vocoder: the older frame D samples before the newest, its spectrum
    /// kept; then frame() of the newest.
    void framePair(RealFFT &f, const Ring &history, std::size_t L, std::size_t D);

    /// Median magnitude up to kNoiseFloorHz of the spectrum in magnitudes() (a noise-floor estimate).
    double noiseFloor(std::size_t bins, double binHz);
    /// The highest local maximum within ±radius Hz of `centre`, with its interpolated frequency.
    Peak peakAt(double centre, double radius, double binHz, std::size_t bins) const;
    /// Where the magnitude peak at bin `peak` lies, in bins (log-parabola through it and its neighbours).
    double interpolatedPeak(long peak) const;
    /// The frequency (Hz) of the peak at bin `peak` from its phase advance between the frame pair.
    /// Remembered per bin until the next spectrum: the partial search asks again for the same peaks
    /// on each of its rescans (two atan2 and three logarithms each; 7.6 % of the engine's CPU on the
    /// 120 s speed file before, readings bit-identical after).
    double phaseVocoder(const RealFFT &f, long peak, std::size_t D) const;
    /// The highest bin within ±radius Hz of `predicted`, with its phase-vocoder frequency; none when
    /// that bin is at the edge of the range (the peak is outside it), or under kPartialOverFloor × the
    /// noise floor, or kPartialUnderStrongest under the strongest peak.
    Candidate candidateNear(const RealFFT &f, std::size_t D, double predicted, double radius, double binHz,
                            double floor, double strongest) const;

    /// As candidateNear, but the highest local maximum within ±radius Hz rather than the highest bin:
    /// a strong neighbouring peak's skirt may be higher at the range's edge (polyphonic spectra); and
    /// the peak must be `overFloor` × the noise floor rather than kPartialOverFloor ×.
    Candidate localPeakNear(const RealFFT &f, std::size_t D, double predicted, double radius, double binHz,
                            double floor, double strongest, double overFloor) const;

    /// The magnitude at `bin` in the older frame of the last framePair() (0 outside its analysed bins).
    double olderMagnitude(long bin) const;
    /// The same, squared (re² + im²: no square root, for sums of energy over many bins).
    double olderPower(long bin) const;

    /// The largest magnitude of the last spectrum within ±1 bin of `frequency` (bins of binHz; a
    /// partial's peak wherever it falls between bins), 0 within 2 bins of either end of its `bins`.
    double largestNear(double frequency, double binHz, std::size_t bins) const;
    /// The magnitude of the last spectrum at `frequency` itself, interpolated linearly between the two
    /// bins around it; 0 within 2 bins of either end of its `bins`.
    double magnitudeAt(double frequency, double binHz, std::size_t bins) const;

    const std::vector<float> &magnitudes() const { return magnitudes_; }
    double fs() const { return fs_; }

private:
    void spectrum(RealFFT &f, const Ring &history, const float *window, std::size_t L, std::size_t back);
    void magnitudesOf(const RealFFT &f, std::size_t bins);
    std::size_t analysedBins(const RealFFT &f, std::size_t bins) const;

    double fs_;
    std::vector<std::unique_ptr<RealFFT>> ffts_;  // sizes nextPow2(frameMin) … nextPow2(frameMax)
    WindowCache windows_;
    std::vector<float> previousSpectrum_;  // the older frame's spectrum (re, im interleaved)
    std::vector<float> magnitudes_;
    std::size_t magnitudesDirty_ = 0;  // magnitudes_[magnitudesDirty_…) are zero
    std::vector<float> scratch_;
    std::vector<std::uint32_t> floorCounts_;  // the noise floor's radix histogram, all zero between uses
    // phaseVocoder's answers for the spectra now held: vocoded_[bin] is valid while
    // vocodedStamp_[bin] == stamp_; stamp_ moves on with every spectrum, and with another FFT or D.
    mutable std::vector<double> vocoded_;
    mutable std::vector<std::uint32_t> vocodedStamp_;
    mutable std::uint32_t stamp_ = 1;
    mutable const RealFFT *vocodedFft_ = nullptr;
    mutable std::size_t vocodedD_ = 0;
    void forgetVocoded() const;
};

} // namespace ctuner
