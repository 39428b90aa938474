// GuardTests.cpp — spectral peaks and the phase vocoder, the octave guard, the onset guard, and the
// tracker's states and memory.
#include "Check.hpp"
#include "Signals.hpp"

#include "../src/Geometry.hpp"
#include "../src/OctaveGuard.hpp"
#include "../src/OnsetGuard.hpp"
#include "../src/SpectralPeaks.hpp"
#include "../src/PitchEngine.hpp"
#include "../src/Tracker.hpp"

using namespace ctuner;

namespace {
constexpr double kFs = 48000;
} // namespace

TEST(phaseVocoderMeasuresADecayingSineWithoutBias) {
    const double f = 196.0;
    std::vector<float> x = signals::sine(f, kFs, 4 * 1470);
    for (std::size_t n = 0; n < x.size(); ++n) x[n] *= float(std::exp(-double(n) / kFs / 0.3));
    Ring history = signals::ringOf(x);
    SpectralFrames s(kFs, 1536, 9930);
    const std::size_t L = 1470, D = 1470;
    RealFFT &fft = s.fftFor(L);
    s.framePair(fft, history, L, D);
    const double binHz = kFs / double(fft.size);
    const Peak p = s.peakAt(f, 3 * binHz, binHz, fft.size / 2 + 1);
    const long bin = long(std::lround(p.frequency / binHz));
    const double measured = s.phaseVocoder(fft, bin, D);
    CHECK(std::abs(signals::cents(measured, f)) < 0.01, "read %.6f Hz (peak %.4f Hz)", measured, p.frequency);
}

// The phase vocoder remembers its answer per bin only while the frames are the same: a new frame
// pair, or another offset D, is measured afresh (a stale answer would read 196 Hz for 197 Hz).
TEST(phaseVocoderAnswersAgainOnlyForTheSameFramesAndOffset) {
    SpectralFrames s(kFs, 1536, 9930);
    const std::size_t L = 1470, D = 1470;
    RealFFT &fft = s.fftFor(L);
    const double binHz = kFs / double(fft.size);
    const long bin = long(std::lround(196.0 / binHz));
    Ring first = signals::ringOf(signals::sine(196.0, kFs, 4 * L));
    s.framePair(fft, first, L, D);
    const double once = s.phaseVocoder(fft, bin, D), again = s.phaseVocoder(fft, bin, D);
    CHECK(once == again && std::abs(signals::cents(once, 196.0)) < 0.01, "read %.6f then %.6f Hz", once, again);
    const double halfOffset = s.phaseVocoder(fft, bin, D / 2);  // the same frames, another advance
    SpectralFrames fresh(kFs, 1536, 9930);
    RealFFT &freshFft = fresh.fftFor(L);
    fresh.framePair(freshFft, first, L, D);
    const double expected = fresh.phaseVocoder(freshFft, bin, D / 2);
    CHECK(halfOffset == expected && expected != once, "D/2 read %.6f Hz, fresh frames %.6f Hz, D %.6f Hz",
          halfOffset, expected, once);
    Ring second = signals::ringOf(signals::sine(197.0, kFs, 4 * L));
    s.framePair(fft, second, L, D);
    const double next = s.phaseVocoder(fft, bin, D);
    CHECK(std::abs(signals::cents(next, 197.0)) < 0.01, "the next frames read %.6f Hz for 197 Hz", next);
}

// magnitudeAt is the spectrum at a frequency itself, linear between the two bins around it (the poly
// analyser's long-frame harmonic sum steers by it: StringPartials.cpp, kCoarsePartials); largestNear is
// the peak within ±1 bin, the same wherever the frequency falls near it.
TEST(magnitudeAtInterpolatesBetweenBinsWhereLargestNearTakesThePeak) {
    SpectralFrames s(kFs, 1536, 9930);
    const std::size_t L = 1470, D = 1470;
    RealFFT &fft = s.fftFor(L);
    const double binHz = kFs / double(fft.size);
    const std::size_t bins = fft.size / 2 + 1;
    const long bin = 40;
    Ring history = signals::ringOf(signals::sine(bin * binHz, kFs, 4 * L));
    s.framePair(fft, history, L, D);
    const std::vector<float> &m = s.magnitudes();
    const double onBin = s.magnitudeAt(bin * binHz, binHz, bins);
    const double between = s.magnitudeAt((bin + 0.25) * binHz, binHz, bins);
    const double expected = 0.75 * m[bin] + 0.25 * m[bin + 1];
    CHECK(std::abs(onBin - m[bin]) < 1e-9 * m[bin] && std::abs(between - expected) < 1e-9 * m[bin] && between < onBin,
          "on the bin %.6g (its magnitude %.6g), a quarter bin up %.6g (expected %.6g)", onBin, double(m[bin]), between,
          expected);
    const double peakNear = s.largestNear((bin + 0.9) * binHz, binHz, bins);
    const double atNear = s.magnitudeAt((bin + 0.9) * binHz, binHz, bins);
    CHECK(peakNear == double(m[bin]) && atNear < 0.9 * peakNear, "0.9 bin up: largest within ±1 bin %.6g, at it %.6g",
          peakNear, atNear);
    CHECK(s.magnitudeAt(1.5 * binHz, binHz, bins) == 0 && s.magnitudeAt((bins - 2) * binHz, binHz, bins) == 0,
          "within 2 bins of either end: 0");
}

TEST(noiseFloorIsTheMedianMagnitude) {
    std::mt19937 rng(3);
    std::normal_distribution<double> g(0, 0.01);
    std::vector<float> x(8192);
    for (float &v : x) v = float(g(rng));
    std::vector<float> loud = x;
    for (std::size_t n = 0; n < loud.size(); ++n) loud[n] += float(0.5 * std::sin(2 * kPi * 1000 * n / kFs));
    SpectralFrames s(kFs, 1536, 8000);
    Ring quiet = signals::ringOf(x), withTone = signals::ringOf(loud);
    RealFFT &fft = s.fftFor(4000);
    s.frame(fft, quiet, 4000);
    const double floor = s.noiseFloor(fft.size / 2 + 1, kFs / double(fft.size));
    s.frame(fft, withTone, 4000);
    const double floorWithTone = s.noiseFloor(fft.size / 2 + 1, kFs / double(fft.size));
    CHECK(floor > 0 && std::abs(floorWithTone / floor - 1) < 0.05, "floor %g, with a tone %g", floor, floorWithTone);
}

TEST(octaveGuardFindsAFundamentalFadedUnderItsSecondPartial) {
    // 82.41 Hz with its fundamental 25 dB under its 2nd partial (the NSDF may read 164.8 Hz): present.
    const double f = 82.41;
    Ring faded = signals::ringOf(signals::partials(f, {0.056, 1.0, 0.5, 0.4, 0.2}, kFs, 16000));
    SpectralFrames s(kFs, 1536, 9930);
    CHECK(subharmonicPresent(s, faded, 1536, 9930, 2 * f, 0), "fundamental at -25 dB not found");
    // Bracketed: at −35 dB (under the −30 dB it needs) it is not.
    Ring gone = signals::ringOf(signals::partials(f, {0.0178, 1.0, 0.5, 0.4, 0.2}, kFs, 16000));
    CHECK(!subharmonicPresent(s, gone, 1536, 9930, 2 * f, 0), "fundamental at -35 dB taken");
    // A tone at 2f itself has nothing at f and 3f: not present.
    Ring octave = signals::ringOf(signals::partials(2 * f, {1.0, 0.5, 0.4}, kFs, 16000));
    CHECK(!subharmonicPresent(s, octave, 1536, 9930, 2 * f, 0), "a subharmonic invented");
}

TEST(octaveGuardKeepsTheOctaveOfANoteWhoseFundamentalFadedOut) {
    // C2 whose fundamental has faded out (a pizzicato cello's, 22 dB under its 2nd partial at the pluck
    // and fading faster): partials 2 and 4 strong, the odd ones 3 and 5 ringing on 20–26 dB down.
    const double f = 65.41;
    SpectralFrames s(kFs, 1536, 9930);
    Ring faded = signals::ringOf(signals::partials(f, {0.0, 1.0, 0.1, 0.5, 0.05, 0.2}, kFs, 16000));
    // Read at C2 before (previous = f): the odd partials keep that octave.
    CHECK(subharmonicPresent(s, faded, 1536, 9930, 2 * f, f), "a C2 reading at C2 lost its octave to C3");
    // Bracketed: never at a note's start (nothing read before, or another note read before) …
    CHECK(!subharmonicPresent(s, faded, 1536, 9930, 2 * f, 0), "partial 1 not required at a note's start");
    CHECK(!subharmonicPresent(s, faded, 1536, 9930, 2 * f, 1.5 * f), "kept for another note");
    // … nor with only one odd partial left (3 without 5) …
    Ring onlyThird = signals::ringOf(signals::partials(f, {0.0, 1.0, 0.1, 0.5, 0.0, 0.2}, kFs, 16000));
    CHECK(!subharmonicPresent(s, onlyThird, 1536, 9930, 2 * f, f), "one odd partial taken for the series");
    // … nor when they have sunk under −50 dB of the strongest …
    Ring sunk = signals::ringOf(signals::partials(f, {0.0, 1.0, 0.002, 0.5, 0.002, 0.2}, kFs, 16000));
    CHECK(!subharmonicPresent(s, sunk, 1536, 9930, 2 * f, f), "odd partials at -54 dB taken");
    // … nor for a note that really moved up the octave (C3 after C2: no odd partials of C2).
    Ring up = signals::ringOf(signals::partials(2 * f, {1.0, 0.5, 0.2}, kFs, 16000));
    CHECK(!subharmonicPresent(s, up, 1536, 9930, 2 * f, f), "C3 after C2 held at C2");
}

namespace {
Geometry geometry(double fs) {
    ct_config c;
    ct_config_default(&c, fs);
    return Geometry(c);
}
} // namespace

TEST(onsetGuardHearsAPluckOverARingingStringButNotTheStringAlone) {
    const Geometry g = geometry(kFs);
    const double f = 82.41;
    std::vector<float> ringing = signals::partials(f, {0.3, 0.2, 0.1}, g.fsDecimated, g.decimatedLength);
    Ring steady = signals::ringOf(ringing);
    const std::size_t hopD = g.hop / g.decimation;
    CHECK(!periodicityBreak(steady, g.fsDecimated, hopD, g.decimation, 100000, f).found, "a break in a steady note");
    // The newest 5 ms: a new string (329.6 Hz) over the old one.
    std::vector<float> plucked = ringing;
    const std::size_t from = plucked.size() - std::size_t(0.005 * g.fsDecimated);
    for (std::size_t n = from; n < plucked.size(); ++n)
        plucked[n] += float(0.4 * std::sin(2 * kPi * 329.6 * double(n - from) / g.fsDecimated));
    Ring attacked = signals::ringOf(plucked);
    const Break b = periodicityBreak(attacked, g.fsDecimated, hopD, g.decimation, 100000, f);
    CHECK(b.found, "no break heard");
    // Its time lies within the newest hop.
    CHECK(b.found && b.at > 100000 - g.hop && b.at <= 100000, "break at %llu", b.at);
}

TEST(onsetGuardRefusesAPeriodTheSoundSinceTheBreakRepeatsAtHalfOf) {
    const Geometry g = geometry(kFs);
    Ring b1 = signals::ringOf(signals::sine(61.74, g.fsDecimated, 4000));
    CHECK(heardSinceBreak(b1, g.fsDecimated, 61.74, 2000), "B1 not heard as B1");
    CHECK(!heardSinceBreak(b1, g.fsDecimated, 30.87, 2000), "B1 heard as B0");
    CHECK(!heardSinceBreak(b1, g.fsDecimated, 61.74, 100), "two periods not required");
}

TEST(trackerNamesHowEachHopEndedAndRemembersOnlyPitchedOnes) {
    const Geometry g = geometry(kFs);
    Tracker t(g);
    Ring history(g.historyLength), decimated(g.decimatedLength);
    ct_result r;
    CHECK(t.analyse(history, decimated, g.hop, r) == HopState::Quiet, "silence not quiet");
    std::vector<float> x = signals::sine(220, kFs, g.historyLength);
    history.push(x.data(), x.size());
    std::vector<float> xd = signals::sine(220, g.fsDecimated, g.decimatedLength);
    decimated.push(xd.data(), xd.size());
    HopState s = t.analyse(history, decimated, 200000, r);
    CHECK(s == HopState::Pitched && std::abs(signals::cents(r.frequency, 220)) < 0.1, "state %d, %g Hz", int(s), r.frequency);
    CHECK(t.memory().heldSince == 200000, "the first reading does not start a note");
    CHECK(t.memory().lastFrequency == r.frequency && t.memory().recentAt == 200000, "pitch not remembered");
    s = t.analyse(history, decimated, 200000 + g.hop, r);
    CHECK(s == HopState::Pitched && r.onset == 0, "state %d, onset %d on a held note", int(s), r.onset);
    Ring silent(g.historyLength);
    CHECK(t.analyse(silent, decimated, 200000 + 2 * g.hop, r) == HopState::Quiet, "not quiet");
    CHECK(t.memory().lastFrequency == 0 && t.memory().recentFrequency > 0, "dropout forgot the recent note");
}

TEST(engineFlagsANoteAfterSilenceAndAPluckOverARingingOneAsOnsets) {
    // 0.3 s of silence, E2 rings until 0.6 s, then E4 is plucked over it. Onsets: where E2 starts
    // (its level rising from silence, before its first pitch), and the hop that holds E4's pluck (or
    // the next); none while E2 holds.
    const double fs = 48000;
    std::vector<float> x(std::size_t(0.3 * fs), 0.0f);
    std::vector<float> e2 = signals::partials(82.41, {0.3, 0.2, 0.1}, fs, std::size_t(0.7 * fs));
    x.insert(x.end(), e2.begin(), e2.end());
    const std::size_t pluck = std::size_t(0.6 * fs) + 100;
    for (std::size_t n = pluck; n < x.size(); ++n)
        x[n] += float(0.4 * std::exp(-double(n - pluck) / fs / 0.5) * std::sin(2 * kPi * 329.63 * double(n - pluck) / fs));
    const std::vector<ct_result> results = signals::resultsOf(x, fs);
    double firstPitch = -1;
    std::vector<double> onsets;
    for (const ct_result &r : results) {
        if (r.has_pitch && firstPitch < 0) firstPitch = r.time;
        if (r.onset) onsets.push_back(r.time);
    }
    CHECK(!onsets.empty() && onsets.front() > 0.3 && onsets.front() <= firstPitch, "first onset %g, first pitch %g",
          onsets.empty() ? -1.0 : onsets.front(), firstPitch);
    bool atPluck = false, whileHeld = false;
    for (double t : onsets) {
        if (t > double(pluck) / fs && t <= double(pluck) / fs + 0.021) atPluck = true;
        if (t > firstPitch && t < 0.6) whileHeld = true;
    }
    CHECK(atPluck, "no onset within two hops of the pluck at %g s", double(pluck) / fs);
    CHECK(!whileHeld, "an onset while E2 held");
}
