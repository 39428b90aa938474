// PalmWatch.cpp — see PalmWatch.hpp.
#include "PalmWatch.hpp"

#include "Arithmetic.hpp"
#include "StringPresence.hpp"

#include <algorithm>
#include <cmath>

namespace ctuner {

bool palmFallBy(double ownFallDb, double spectrumFallDb) {
    return fellBeyondSpectrum(ownFallDb, spectrumFallDb, kPalmFallDb);
}

double palmFallDb(const double *newer, const double *older, std::size_t n) {
    double sumNewer = 0, sumOlder = 0;
    std::size_t most = 0;  // the partial that fell most
    for (std::size_t j = 0; j < n; ++j) {
        sumNewer += newer[j], sumOlder += older[j];
        if (newer[j] * older[most] < newer[most] * older[j]) most = j;
    }
    if (!(sumNewer > 0 && sumOlder > 0)) return 0;
    double fall = 10 * std::log10(sumNewer / sumOlder);
    const double restNewer = sumNewer - newer[most], restOlder = sumOlder - older[most];
    if (n >= 2 && restNewer > 0 && restOlder > 0) fall = std::max(fall, 10 * std::log10(restNewer / restOlder));
    return fall;
}

double palmEnergyNow(const float *newer, std::size_t bins, double binHz, double frequency, double older) {
    const long bin = std::lround(frequency / binHz);
    if (bin < 0 || bin >= long(bins)) return 0;
    double now = newer[bin];
    const long reach = std::lround(frequency * (std::exp2(kPalmGlideCents / 1200) - 1) / binHz);
    const double least = older * std::pow(10.0, -kPalmMovedDb / 10);
    for (long b = std::max(1L, bin - reach); b <= bin + reach && b + 1 < long(bins); ++b)
        if (newer[b] > newer[b - 1] && newer[b] >= newer[b + 1] && newer[b] >= least) now = std::max(now, double(newer[b]));
    return now;
}

bool palmLiftedBy(double now, double older, double before) {
    return now >= before * std::pow(10.0, -kPalmLiftDb / 10) || now >= older * std::pow(10.0, kPalmRiseDb / 10);
}

PalmWatch::PalmWatch(double fs, std::size_t strings, std::size_t hop, double limitHz)
    : fs_(fs), hopsPerFrame_(std::max(1L, std::lround(kPalmFrameSeconds * fs / double(hop)))),
      frame_(std::size_t(hopsPerFrame_) * hop), fft_(std::make_unique<RealFFT>(nextPow2(frame_), false)),
      binHz_(fs / double(fft_->size)), bins_(std::min(fft_->size / 2 + 1, std::size_t(limitHz / binHz_) + 2)),
      window_(frame_), spectra_(std::size_t(hopsPerFrame_ + 1) * bins_), stamps_(std::size_t(hopsPerFrame_ + 1), -1),
      olderScratch_(bins_), state_(strings) {
    for (std::size_t n = 0; n < frame_; ++n)
        window_[n] = float(0.5 - 0.5 * std::cos(2 * kPi * (double(n) + 0.5) / double(frame_)));  // Hann
}

PalmWatch::~PalmWatch() = default;

void PalmWatch::forget() {
    for (State &s : state_) s = {};
}

void PalmWatch::reset() {
    forget();
    std::fill(stamps_.begin(), stamps_.end(), -1L);
}

void PalmWatch::framePower(const Ring &history, std::size_t back, float *power) {
    RealFFT &f = *fft_;
    const float *x = history.latest(frame_, back);
    for (std::size_t n = 0; n < frame_; ++n) f.in[n] = x[n] * window_[n];
    f.padFrom(frame_);
    fftwf_execute(f.forward);
    for (std::size_t b = 0; b < bins_; ++b) power[b] = f.out[b][0] * f.out[b][0] + f.out[b][1] * f.out[b][1];
}

double PalmWatch::energyAt(const double *frequencies, std::size_t n, bool older) const {
    const float *power = older ? older_ : newer_;
    double e = 0;
    for (std::size_t j = 0; j < n; ++j) {
        const std::size_t bin = std::size_t(std::lround(frequencies[j] / binHz_));
        if (bin < bins_) e += power[bin];
    }
    return e;
}

std::size_t PalmWatch::weighed(const StringPartials *strings, std::size_t count, std::size_t i, double *out) const {
    const double apart = kPalmResolvedLobes * fs_ / double(frame_);
    const StringPartials &s = strings[i];
    std::size_t n = 0;
    for (std::size_t j = 0; j < s.partialCount(); ++j) {
        const FoundPartial &p = s.partials()[j];
        if (!p.own) continue;
        bool alone = true;
        for (std::size_t o = 0; o < count && alone; ++o)
            for (std::size_t q = 0; o != i && q < strings[o].partialCount() && alone; ++q)
                alone = std::abs(strings[o].partials()[q].frequency - p.frequency) >= apart;
        if (alone) out[n++] = p.frequency;
    }
    return n;
}

void PalmWatch::watch(const Ring &history, long hop, const StringPartials *strings, std::size_t count, bool attack) {
    // The newer frame of this hop is the older frame of the hop hopsPerFrame_ later: one FFT per hop,
    // two when the older one was not made (the first hops, or hops the gate kept from the analysis).
    const std::size_t slots = stamps_.size(), slot = std::size_t(hop) % slots, olderSlot = std::size_t(hop + 1) % slots;
    newer_ = &spectra_[slot * bins_];
    framePower(history, 0, &spectra_[slot * bins_]);
    stamps_[slot] = hop;
    if (stamps_[olderSlot] == hop - hopsPerFrame_) {
        older_ = &spectra_[olderSlot * bins_];
    } else {
        framePower(history, frame_, olderScratch_.data());
        older_ = olderScratch_.data();
    }
    double newer = 0, older = 0;
    for (std::size_t b = 1; b + 1 < bins_; ++b) newer += newer_[b], older += older_[b];
    const double spectrumFallDb = older > 0 && newer > 0 ? 10 * std::log10(newer / older) : 0;
    for (std::size_t i = 0; i < count && i < state_.size(); ++i) {
        State &s = state_[i];
        if (s.damped) {
            if (palmLiftedBy(energyAt(s.at.data(), s.count, false), energyAt(s.at.data(), s.count, true), s.before))
                s = {};
            continue;
        }
        std::array<double, kStringPartials> at{}, now{}, then{};
        const std::size_t n = strings[i].heard() && !attack ? weighed(strings, count, i, at.data()) : 0;
        double before = 0;  // the weighed partials' energy in the older frame
        for (std::size_t j = 0; j < n; ++j) {
            then[j] = energyAt(&at[j], 1, true);
            now[j] = palmEnergyNow(newer_, bins_, binHz_, at[j], then[j]);
            before += then[j];
        }
        const bool falling = n > 0 && palmFallBy(palmFallDb(now.data(), then.data(), n), spectrumFallDb);
        s.fallingHops = falling ? s.fallingHops + 1 : 0;
        if (s.fallingHops >= kPalmHops) s = {true, 0, before, n, at};
    }
}

} // namespace ctuner
