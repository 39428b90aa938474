// StrumPass.cpp — see StrumPass.hpp.
#include "StrumPass.hpp"

#include "WindowCache.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace ctuner {
namespace {
/// The phase vocoder's advance between the frame pair, as a fraction of the frame.
constexpr double kAdvanceOfFrame = 0.5;
/// Two partials closer than this many bins of the frame (fs/L) are one peak to the analysis: the
/// main lobe's half width is 4 bins; at 3 bins a neighbour of equal level still moves the peak's phase
/// advance by cents (PolyTests: twoPartialsThreeBinsApartAreToldApart measures what is left at 3).
constexpr double kCollisionBins = 3.0;
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

std::size_t frameLength(double fs, double seconds) { return std::size_t(std::ceil(seconds * fs)); }
std::size_t advanceLength(double fs, double seconds) { return std::size_t(std::ceil(kAdvanceOfFrame * seconds * fs)); }
} // namespace

double partialLimitHz(double fs) { return std::min(kPartialLimitOfRate * fs, kPartialLimitHz); }

StrumPass::StrumPass(std::vector<StringPartials> s, double sampleRate, double frameSeconds, bool isLong)
    : strings(std::move(s)), fs(sampleRate), frame(frameLength(sampleRate, frameSeconds)),
      advance(advanceLength(sampleRate, frameSeconds)), frames(sampleRate, frame, frame),
      toAmplitude(2.0 / (WindowCache::kCoherentGain * double(frame))), collisionHz(kCollisionBins * (sampleRate / double(frame))),
      longFrames(isLong) {}

void StrumPass::run(const Ring &history) {
    RealFFT &f = frames.fftFor(frame);
    frames.framePair(f, history, frame, advance);
    bins = f.size / 2 + 1;
    binHz = fs / double(f.size);
    const double limit = partialLimitHz(fs);
    const std::vector<float> &m = frames.magnitudes();
    const std::size_t limitBin = std::min(bins - 1, std::size_t(limit / binHz));
    double newer = 0, older = 0;
    for (std::size_t b = 1; b <= limitBin; ++b) {
        newer += double(m[b]) * double(m[b]);
        older += frames.olderPower(long(b));
    }
    attack = newer > kAttackEnergyRise * older;
    const double frameBinHz = fs / double(frame);
    SharedSpectrum shared{&frames, &f, advance, binHz, frameBinHz, collisionHz,
                          frames.noiseFloor(bins, binHz), *std::max_element(m.begin() + 1, m.begin() + limitBin + 1),
                          limit, attack, older > 0 && newer > 0 ? 10 * std::log10(newer / older) : 0, longFrames};
    StringPartials *all = strings.data();
    const std::size_t n = strings.size();
    for (StringPartials &s : strings) s.search(shared, all, n);
    for (StringPartials &s : strings) s.markGround(all, n, shared.collisionHz, shared.attack);
    for (StringPartials &s : strings) s.markClaims(all, n, shared.collisionHz);
    for (StringPartials &s : strings) s.resolve(all, n, shared.collisionHz);
    // Once more from the resolved fits (StringPartials::searchAgain).
    for (StringPartials &s : strings) s.searchAgain(shared);
    for (StringPartials &s : strings) s.markGround(all, n, shared.collisionHz, shared.attack);
    for (StringPartials &s : strings) s.markClaims(all, n, shared.collisionHz);
    for (StringPartials &s : strings) s.resolve(all, n, shared.collisionHz);
    for (StringPartials &s : strings) s.confirm(all, n, shared.collisionHz);
}

} // namespace ctuner
