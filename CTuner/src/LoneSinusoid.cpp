// LoneSinusoid.cpp — see LoneSinusoid.hpp.
#include "LoneSinusoid.hpp"

#include "Arithmetic.hpp"

#include <algorithm>
#include <cmath>

namespace ctuner {
namespace {
/// The onset search cuts the window into at most this many pieces.
constexpr std::size_t kPieces = 128;
/// Leading pieces quieter than this fraction of the loudest, or than kRiseRatio of the next, are
/// before the tone (silence, then the onset).
constexpr double kQuietFraction = 0.1;
constexpr double kRiseRatio = 0.5;
/// Within the first piece kept, the tone begins at the first sample above this fraction of its
/// amplitude (what is left out before it is at most the part of a cycle near a zero).
constexpr double kStartAmplitude = 0.2;
/// After an onset the attack's own shape is left out: a 2 ms fade-in at the window's edge still moved
/// a B0 sine by 0.3 cents.
constexpr double kAttackSeconds = 0.005;
/// A steady sine's half periods differ in energy by well under 1 %: a first kept piece more than 3 %
/// quieter than the next is an onset.
constexpr double kSteadyRatio = 0.97;
/// Taylor order of the correlations in δ (exact well inside |δ| ≤ 0.1 bin).
constexpr int kTaylorOrder = 6;
/// The search range, ± a tenth of a bin of N, and the golden-section steps that narrow it.
constexpr double kSearchBins = 0.1;
constexpr int kGoldenSteps = 48;
} // namespace

/// The model is a sinusoid of constant amplitude over the whole window: a window that begins before
/// the tone did would bias it (samples at the window's edges weigh most in a frequency estimate, and
/// a quarter period of silence in 12 periods moves it by cents). A piece is half a period long where
/// that makes at most kPieces pieces: the energy of half a period of a sine does not depend on its
/// phase.
std::size_t samplesSinceOnset(const float *all, std::size_t N, double frequency, double fs) {
    const std::size_t piece = std::max<std::size_t>(
        std::size_t(std::lround(0.5 * fs / frequency)), (N + kPieces - 1) / kPieces);
    const std::size_t count = std::min(kPieces, N / std::max<std::size_t>(1, piece));
    double energy[kPieces], loudest = 0;
    for (std::size_t c = 0; c < count; ++c) {
        energy[c] = sumOfSquares(all + (N - count * piece) + c * piece, piece);
        loudest = std::max(loudest, energy[c]);
    }
    std::size_t quiet = 0;
    while (quiet + 1 < count &&
           (energy[quiet] < kQuietFraction * loudest || energy[quiet] < kRiseRatio * energy[quiet + 1]))
        ++quiet;
    const double amplitude = std::sqrt(2.0 * loudest / double(piece));
    const std::size_t first = (N - count * piece) + quiet * piece, end = first + piece;
    std::size_t begin = first;
    while (begin < end && std::abs(all[begin]) < kStartAmplitude * amplitude) ++begin;
    // An onset is in or just before the window when pieces were left out, or when the first piece
    // kept is quieter than the next (a decaying sine's older pieces are the louder).
    const bool onset = quiet > 0 || (quiet + 1 < count && energy[quiet] < kSteadyRatio * energy[quiet + 1]);
    if (onset) begin += std::size_t(kAttackSeconds * fs);
    return (begin < N && N - begin >= piece) ? N - begin : N;
}

/// With n centred on the window (n' = n − (N−1)/2) the sine is orthogonal to the other two and the
/// normal equations have closed forms; the correlations at ω0 + δ/h (h = N/2) come from one pass
/// over the samples as a Taylor series in δ, T_k = Σ x_n u_n^k e^{−iω0 n'}, u = n'/h.
double loneSinusoidFrequency(const float *all, std::size_t total, double start, double fs) {
    constexpr int K = kTaylorOrder;
    const std::size_t N = samplesSinceOnset(all, total, start, fs);
    const float *x = all + (total - N);
    const double m = 0.5 * double(N - 1), h = 0.5 * double(N);
    const double sum = sumOf(x, N);  // Σ x, the constant's correlation
    double omega0 = 2.0 * kPi * start / fs;
    for (int pass = 0; pass < 2; ++pass) {
        double tr[K + 1] = {}, ti[K + 1] = {};
        // e^{−iω0 n'} from n' = −m by rotation, renormalised every 1024 samples.
        double cr = std::cos(omega0 * m), ci = std::sin(omega0 * m);
        const double sr = std::cos(omega0), si = -std::sin(omega0);
        for (std::size_t n = 0; n < N; ++n) {
            const double u = (double(n) - m) / h;
            double pr = double(x[n]) * cr, pi = double(x[n]) * ci, w = 1;
            for (int k = 0; k <= K; ++k) {
                tr[k] += pr * w;
                ti[k] += pi * w;
                w *= u;
            }
            double nr = cr * sr - ci * si, ni = cr * si + ci * sr;
            cr = nr;
            ci = ni;
            if ((n & 1023) == 1023) {
                double mag = std::sqrt(cr * cr + ci * ci);
                cr /= mag;
                ci /= mag;
            }
        }
        // J(δ): the projection's energy at ω = ω0 + δ/h.
        const double dN = double(N);
        auto energy = [&](double delta) {
            double zr = 0, zi = 0, pr = 1, pi = 0;  // (−iδ)^k / k!
            for (int k = 0; k <= K; ++k) {
                zr += pr * tr[k] - pi * ti[k];
                zi += pr * ti[k] + pi * tr[k];
                double nr = pi * delta, ni = -pr * delta;  // × (−iδ)
                pr = nr / double(k + 1);
                pi = ni / double(k + 1);
            }
            const double w = omega0 + delta / h;
            const double sw = std::sin(w), sw2 = std::sin(0.5 * w);
            const double dirichlet2 = std::abs(sw) > 1e-12 ? std::sin(dN * w) / sw : dN;
            const double dirichlet1 = std::abs(sw2) > 1e-12 ? std::sin(0.5 * dN * w) / sw2 : dN;
            const double scc = 0.5 * (dN + dirichlet2), sss = 0.5 * (dN - dirichlet2);
            const double c = zr, s = -zi;
            const double det = scc * dN - dirichlet1 * dirichlet1;
            if (sss <= 0 || det <= 0) return 0.0;
            return s * s / sss + (dN * c * c - 2 * dirichlet1 * c * sum + scc * sum * sum) / det;
        };
        // Golden-section search for the maximum on |δ| ≤ 0.1 bin (δ = π/10 at the window's edge).
        const double g = 0.5 * (std::sqrt(5.0) - 1.0);
        double a = -kSearchBins * kPi, b = kSearchBins * kPi;
        double c1 = b - g * (b - a), c2 = a + g * (b - a);
        double j1 = energy(c1), j2 = energy(c2);
        for (int i = 0; i < kGoldenSteps; ++i) {
            if (j1 >= j2) {
                b = c2;
                c2 = c1;
                j2 = j1;
                c1 = b - g * (b - a);
                j1 = energy(c1);
            } else {
                a = c1;
                c1 = c2;
                j1 = j2;
                c2 = a + g * (b - a);
                j2 = energy(c2);
            }
        }
        const double delta = 0.5 * (a + b);
        omega0 += delta / h;
        if (std::abs(delta) < 0.02 * kPi) break;  // well inside the range: the Taylor series is exact
    }
    return omega0 * fs / (2.0 * kPi);
}

} // namespace ctuner
