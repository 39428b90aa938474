// PolyAnalyser.cpp — see PolyAnalyser.hpp.
#include "PolyAnalyser.hpp"

#include "Arithmetic.hpp"
#include "Geometry.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace ctuner {
namespace {
/// The frame: 0.25 s (0.2 s read a flat E2 beside D3 and B3 with too few partials of its own; 0.3 s
/// read A2 −15 ¢ under coincident partials 1.7 ¢ off against 1.0 ¢ at 0.25 s: PolyTests). Partials of different strings closer than the Blackman–Harris main lobe
/// (±4/L: ±16 Hz at 0.25 s) bias each other's phase advance; the strings of a guitar interleave their
/// partials every ~25 Hz on average, so a shorter frame leaves each string too few partials of its own,
/// and a longer one delays the first clean reading after a strum (target: ≤ 400 ms). Measured with
/// Benchmarks/strums.py on the tuning seeds (BENCHMARKS.md, "Strums").
constexpr double kFrameSeconds = 0.25;
/// The phase vocoder's advance between the frame pair, as a fraction of the frame.
constexpr double kAdvanceOfFrame = 0.5;
/// Two partials closer than this many bins of the frame (fs/L) are one peak to the analysis: the
/// main lobe's half width is 4 bins; at 3 bins a neighbour of equal level still moves the peak's phase
/// advance by cents (PolyTests: twoPartialsThreeBinsApartAreToldApart measures what is left at 3).
constexpr double kCollisionBins = 3.0;
/// Each string is looked for within this many cents of its target: a semitone and a margin, so a
/// string a semitone off is still read; its octaves (±1200 ¢) are far outside.
constexpr double kSearchCents = 130.0;
/// A string not reported for longer than this (one frame: what the frame held of it is gone) is
/// reported again only through its 1st partial, found or hidden on another string's partial
/// (StringPartials::confirm). Without its 1st partial, what a silent string finds on real recordings
/// is another note's partials and noise on its 2nd, 3rd, 4th…: a cello's silent A3 read a bowed C2's
/// 7th and 14th partials as its 2nd and 4th (+71 ¢) on 24 % of the hops. Measured with --poly on the
/// development half of the real recordings (Benchmarks/poly_real.py), silent strings reported: 5.94 %
/// without the rule; with it 3.28 / 3.35 / 3.47 / 3.73 / 3.91 / 4.92 % at 0.01 / 0.05 / 0.1 / 0.25 /
/// 0.5 / 3 s. Played strings: heard as before on the real recordings at every value; on the
/// weak-fundamental set (Benchmarks/weak_fundamental.py's files, each note as the 2nd string of a
/// tuning in fourths) 99.65 % of the plucks' steady hops and 91.74 → 91.66 % of the FluidR3 renders'
/// from 0.05 s up, but 99.20 / 91.40 % at 0.01 s: one frame keeps 5× that margin. strums.py tuning
/// part: muted strings reported 0.07 → 0.05 %, every other figure identical (without the hidden 1st
/// partial, seed 204's B3, whose 1st partial sits beside E2's 3rd, went unheard on 7 % of its hops).
/// PolySilenceTests: aSilentStringIsNotHeardOnPartialsAbove… (fails without the rule),
/// aStringBackWithinAFrame… (fails at 0.15 s and at 0.3 s), aStringWhoseFirstPartialIsHidden… (fails
/// without the hidden 1st partial).
constexpr double kResumeSeconds = kFrameSeconds;
/// Targets closer than this cannot have separate search ranges.
constexpr double kMinTargetSpacingCents = 2 * kSearchCents;
/// No partial is looked for above 5 kHz (nor 0.45·fs): a string's partials there are weak and dense
/// with other strings' ones.
constexpr double kPartialLimitHz = 5000.0;
constexpr double kPartialLimitOfRate = 0.45;
/// The frame pair is in an attack (a strum has begun between them) when the newer frame's energy up
/// to the partial limit is this many times (6 dB) the older one's: a ringing strum's energy falls
/// over the pair (0.125 s); a new strum's rises by far more than 6 dB while the frame fills (then
/// StringPartials' attack guard holds, kAttackRise). PolyTests bracket it: without it (1e9) muted
/// strings are heard in the attack (16 still passed them); at 0.5 every hop is an attack and a string
/// struck into a ringing strum is held back (0.20 → 0.25 s).
constexpr double kAttackEnergyRise = 4.0;
/// The string levels are reported in dBFS of the strongest partial's RMS; −120 dBFS when not heard.
constexpr double kSilenceDb = -120.0;
/// The Blackman–Harris window's coherent gain (its mean, a0): a sinusoid of amplitude A has a peak
/// of magnitude A·a0·L/2.
constexpr double kWindowGain = 0.35875;
/// Input samples are clamped to ±this before analysis (as in the monophonic engine).
constexpr float kInputLimit = 1e6f;

std::size_t frameLength(double fs) { return std::size_t(std::ceil(kFrameSeconds * fs)); }
std::size_t advanceLength(double fs) { return std::size_t(std::ceil(kAdvanceOfFrame * kFrameSeconds * fs)); }

std::vector<StringPartials> checkedStrings(const ct_config &c, const double *targets, std::size_t count) {
    Geometry::validate(c);
    if (count == 0 || !targets) throw std::invalid_argument("no strings to listen for");
    if (count > kMaxPolyStrings)
        throw std::invalid_argument("at most " + std::to_string(kMaxPolyStrings) + " strings can be read at once");
    std::vector<StringPartials> strings;
    for (std::size_t i = 0; i < count; ++i) {
        const double t = targets[i];
        if (!(std::isfinite(t) && t >= c.min_frequency && t <= c.max_frequency))
            throw std::invalid_argument("string " + std::to_string(i + 1) + "'s target is outside the frequency range");
        for (std::size_t j = 0; j < i; ++j)
            if (std::abs(1200.0 * std::log2(t / targets[j])) < kMinTargetSpacingCents)
                throw std::invalid_argument("strings " + std::to_string(j + 1) + " and " + std::to_string(i + 1) +
                                            " are tuned closer than " + std::to_string(int(kMinTargetSpacingCents)) +
                                            " cents: their readings could not be told apart");
        strings.emplace_back(t, kSearchCents, int(std::lround(kResumeSeconds / c.hop_seconds)));
    }
    return strings;
}
} // namespace

PolyAnalyser::PolyAnalyser(const ct_config &c, const double *targets, std::size_t count)
    : fs_(c.sample_rate), gateDb_(c.gate_db), strings_(checkedStrings(c, targets, count)),
      hop_(std::size_t(std::lround(c.sample_rate * c.hop_seconds))), frame_(frameLength(c.sample_rate)),
      advance_(advanceLength(c.sample_rate)), levelWindow_(std::size_t(std::ceil(kLevelSeconds * c.sample_rate))),
      history_(frameLength(c.sample_rate) + advanceLength(c.sample_rate) + 16),
      frames_(c.sample_rate, frameLength(c.sample_rate), frameLength(c.sample_rate)), readings_(count) {
    reset();
}

PolyAnalyser::~PolyAnalyser() = default;

void PolyAnalyser::reset() {
    history_.clear();
    consumed_ = sinceHop_ = 0;
    for (StringPartials &s : strings_) s.forget();
    for (ct_poly_string &r : readings_) r = {0, 0, 0, kSilenceDb, 0};
}

void PolyAnalyser::process(const float *samples, std::size_t count) {
    constexpr std::size_t kChunk = 256;
    float chunk[kChunk];
    while (count > 0) {
        const std::size_t run = std::min({count, hop_ - sinceHop_, kChunk});
        for (std::size_t i = 0; i < run; ++i) {
            const float x = std::isfinite(samples[i]) ? samples[i] : 0.0f;
            chunk[i] = std::max(-kInputLimit, std::min(kInputLimit, x));
        }
        history_.push(chunk, run);
        samples += run;
        count -= run;
        consumed_ += run;
        sinceHop_ += run;
        if (sinceHop_ == hop_) {
            sinceHop_ = 0;
            analyse();
            if (onHop) onHop(double(consumed_) / fs_, readings_.data(), readings_.size());
        }
    }
}

void PolyAnalyser::analyse() {
    const double power = sumOfSquares(history_.latest(levelWindow_), levelWindow_) / double(levelWindow_);
    const double levelDb = power > 1e-12 ? 10.0 * std::log10(power) : kSilenceDb;
    for (ct_poly_string &r : readings_) r = {0, 0, 0, kSilenceDb, 0};
    if (levelDb < gateDb_) {
        for (StringPartials &s : strings_) s.forget();
        return;
    }
    RealFFT &f = frames_.fftFor(frame_);
    frames_.framePair(f, history_, frame_, advance_);
    const std::size_t bins = f.size / 2 + 1;
    const double binHz = fs_ / double(f.size);
    const double limit = std::min(kPartialLimitOfRate * fs_, kPartialLimitHz);
    const std::vector<float> &m = frames_.magnitudes();
    const std::size_t limitBin = std::min(bins - 1, std::size_t(limit / binHz));
    double newer = 0, older = 0;
    for (std::size_t b = 1; b <= limitBin; ++b) {
        newer += double(m[b]) * double(m[b]);
        const double o = frames_.olderMagnitude(long(b));
        older += o * o;
    }
    SharedSpectrum shared{&frames_, &f, advance_, binHz, kCollisionBins * fs_ / double(frame_),
                          frames_.noiseFloor(bins, binHz), *std::max_element(m.begin() + 1, m.begin() + limitBin + 1),
                          limit, newer > kAttackEnergyRise * older,
                          older > 0 && newer > 0 ? 10 * std::log10(newer / older) : 0};
    for (StringPartials &s : strings_) s.search(shared);
    for (StringPartials &s : strings_) s.markClaims(strings_.data(), strings_.size(), shared.collisionHz);
    for (StringPartials &s : strings_) s.resolve(strings_.data(), strings_.size(), shared.collisionHz);
    // Once more from the resolved fits (StringPartials::searchAgain).
    for (StringPartials &s : strings_) s.searchAgain(shared);
    for (StringPartials &s : strings_) s.markClaims(strings_.data(), strings_.size(), shared.collisionHz);
    for (StringPartials &s : strings_) s.resolve(strings_.data(), strings_.size(), shared.collisionHz);
    for (StringPartials &s : strings_) s.confirm(strings_.data(), strings_.size(), shared.collisionHz);
    const double toAmplitude = 2.0 / (kWindowGain * double(frame_));
    for (std::size_t i = 0; i < strings_.size(); ++i) {
        const StringPartials &s = strings_[i];
        if (!s.heard()) continue;
        const double rms = std::sqrt(s.ownEnergy() / 2.0) * toAmplitude;
        readings_[i] = {1, s.frequency(), s.inharmonicity(), rms > 1e-6 ? 20.0 * std::log10(rms) : kSilenceDb,
                        s.clarity()};
    }
}

} // namespace ctuner
