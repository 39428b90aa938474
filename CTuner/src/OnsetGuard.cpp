// OnsetGuard.cpp — see OnsetGuard.hpp.
#include "OnsetGuard.hpp"

#include "Arithmetic.hpp"
#include "Nsdf.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ctuner {
namespace {
/// The newest hop is judged in pieces of 2.5 ms (at least 8 samples). 2.5 ms pieces normalised by
/// their own energy fired on B0's spiky waveform and on noise (12 % voicing misses at 10 dB SNR);
/// 1.25 ms pieces fired on the overdriven A2's wobble (BENCHMARKS.md, "Octave errors on attacks").
constexpr double kPieceSeconds = 0.0025;
constexpr std::size_t kMinPieceSamples = 8;
/// … against the 20 ms before them (at least two periods), normalised by those 20 ms' average power:
/// a low string's waveform is spiky, and at a quiet moment of its period a piece's own energy is small.
constexpr double kBaseSeconds = 0.02;
/// A piece breaks when its square difference over twice its energy at that average power exceeds
/// 0.3: held notes in the instrument renders reach 0.22 at most (distortion guitar G3), 0 on every
/// synthetic file; a pick's attack with 2 ms of it in the piece measured 0.32 (at 0.4 the guitar
/// sequence's E2→E4 was caught a hop late; at 0.25 one steady instrument reading was held back).
constexpr double kBreakMeasure = 0.3;
/// … and six times what the 20 ms before it measured.
constexpr double kBreakOverBefore = 6.0;
/// … while its power has not fallen to half: a string being damped also stops repeating, but its
/// power falls; a pluck over it keeps or raises the power.
constexpr double kLouderRatio = 0.5;
/// Since a break, the sound must repeat at the reading's period with an NSDF of 0.8 (and at P/2, P/3
/// under kKeyMaximumRatio of that, the long window's own rule), over at least two periods.
constexpr double kHeardClarity = 0.8;
constexpr double kHeardPeriods = 2.0;
} // namespace

Break periodicityBreak(const Ring &decimated, double fsDecimated, std::size_t hopDecimated, std::size_t decimation,
                       unsigned long long consumed, double frequency) {
    const double lag = fsDecimated / frequency;
    const std::size_t whole = std::size_t(std::floor(lag));
    const double frac = lag - double(whole);
    const std::size_t piece = std::max<std::size_t>(kMinPieceSamples, std::size_t(kPieceSeconds * fsDecimated));
    const std::size_t pieces = std::max<std::size_t>(1, hopDecimated / piece);
    const std::size_t base = std::max<std::size_t>(std::size_t(kBaseSeconds * fsDecimated), 2 * whole + 2);
    const std::size_t span = base + pieces * piece;
    if (span + whole + 2 > decimated.capacity) return {};
    const float *x = decimated.latest(span + whole + 1);  // the span's sample j is x[j + whole + 1]
    auto difference = [&](std::size_t from, std::size_t count, double &energy, double &own) {
        double num = 0, den = 0, mine = 0;
        for (std::size_t j = from; j < from + count; ++j) {
            const std::size_t i = j + whole + 1;
            const double y = x[i];
            const double earlier = lagged(x, i, whole, frac);
            num += (y - earlier) * (y - earlier);
            den += y * y + earlier * earlier;
            mine += y * y;
        }
        energy = den;
        own = mine;
        return num;
    };
    double energy = 0, ownBefore = 0;
    const double differenceBefore = difference(0, base, energy, ownBefore);
    if (energy <= 0) return {};
    const double perSample = energy / double(base);  // of x² + lagged², i.e. twice the power
    const double before = differenceBefore / energy;
    for (std::size_t c = 0; c < pieces; ++c) {
        double unused = 0, own = 0;
        const double now = difference(base + c * piece, piece, unused, own) / (perSample * double(piece));
        const bool louder = own / double(piece) >= kLouderRatio * ownBefore / double(base);
        if (louder && now > kBreakMeasure && now > kBreakOverBefore * before)
            return {true, consumed - (unsigned long long)((pieces - c) * piece * decimation),
                    before > 0 ? now / before : std::numeric_limits<double>::infinity()};
    }
    return {};
}

/// r(τ) = 2Σx[n]x[n−τ] / Σ(x[n]² + x[n−τ]²) over the stretch alone. A string plucked an octave over
/// one still ringing (B0 then B1) repeats at the old period too, so the long window, half of it still
/// the old string, can read the old note for most of its length.
bool heardSinceBreak(const Ring &decimated, double fsDecimated, double frequency, std::size_t count) {
    const double period = fsDecimated / frequency;
    count = std::min(count, decimated.capacity);
    if (double(count) < kHeardPeriods * period + 2.0) return false;
    const float *x = decimated.latest(count);
    auto nsdfAt = [&](double lag) {
        const std::size_t whole = std::size_t(std::floor(lag));
        const double frac = lag - double(whole);
        double cross = 0, energy = 0;
        for (std::size_t n = whole + 1; n < count; ++n) {
            const double y = x[n];
            const double earlier = lagged(x, n, whole, frac);
            cross += y * earlier;
            energy += y * y + earlier * earlier;
        }
        return energy > 0 ? 2.0 * cross / energy : 0.0;
    };
    const double atPeriod = nsdfAt(period);
    if (atPeriod < kHeardClarity) return false;
    for (int k = 2; k <= 3; ++k)
        if (period / k >= 2.0 && nsdfAt(period / k) >= kKeyMaximumRatio * atPeriod) return false;
    return true;
}

} // namespace ctuner
