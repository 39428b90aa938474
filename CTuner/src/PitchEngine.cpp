/*
 * PitchEngine.cpp — the tuner's pitch engine.
 *
 * Two stages per analysis hop:
 *
 * 1. Period decision (which note, which octave): the normalised square difference function (NSDF) of
 *    P. McLeod and G. Wyvill, "A Smarter Way to Find Pitch", Proc. ICMC 2005 (the "MPM" method),
 *    computed through an FFT autocorrelation over a window of at least 3.5 periods of the lowest note,
 *    on a copy of the input decimated to about 20–24 kHz. The chosen period is the first key maximum
 *    that reaches 0.85 of the highest one, which keeps a strong 2nd harmonic from pulling the reading an
 *    octave up and lets a missing fundamental still give the fundamental's period. The height of that
 *    maximum is the result's confidence (its "clarity").
 *
 * 2. Frequency refinement (sub-cent): a phase vocoder on each partial — the phase advance of a DFT
 *    peak between two frames D samples apart (J. L. Flanagan and R. M. Golden, "Phase Vocoder", Bell
 *    Syst. Tech. J. 45, 1966; M. S. Puckette and J. C. Brown, "Accuracy of frequency estimates using
 *    the phase vocoder", IEEE Trans. Speech Audio Process. 6(2), 1998). For one exponentially decaying
 *    sinusoid the advance is exactly ω·D, so a plucked, fading string is measured without bias. The
 *    frames use a 4-term Blackman–Harris window (F. J. Harris, Proc. IEEE 66(1), 1978; sidelobes
 *    −92 dB) at least six periods long, so neighbouring partials do not leak into each other.
 *    String partials are inharmonic — f_k = k·f0·sqrt(1 + B·k²) (H. Fletcher, "Normal vibration
 *    frequencies of a stiff piano string", JASA 36(1), 1964) — so harmonics read sharp. The engine fits
 *    f_k = k·f1·sqrt((1 + B·k²)/(1 + B)) by weighted least squares (weights ∝ k²·|X_k|², the inverse
 *    variance of f_k/k) and reports f1, the frequency of the first partial, which is what the string's
 *    fundamental sounds at; a missing fundamental is recovered from the fitted upper partials.
 *    The partials are found one by one, each where the fit of those before it puts it, then looked
 *    for again where the fit of all of them puts them, until that set stops changing.
 *
 * Buffers (all made in the constructor, with the FFTW plans; process() allocates nothing):
 *  - history: a ring of the newest input, long enough for 1.5 × the longest refinement frame;
 *  - decimated history for the NSDF: W_d = ceil(3.5 · fs_d / min_frequency) samples, FFT size
 *    nextpow2(W_d + max_lag + 1);
 *  - refinement frames: length L = clamp(6 periods, 32 ms, 6 periods of min_frequency); the pair's
 *    offset D grows from L/2 at a note's onset to L once the note has held that long, so a held note
 *    is measured over 2L samples (its effective window) and a new one locks after 1.5L; FFT sizes
 *    nextpow2(L) … nextpow2(L_max), one plan per power of two.
 *
 * Attacks: a pluck breaks the periodicity of the string read before it at once, while the analysis
 * windows still hold mostly that string for tens of milliseconds (periodicityBreak); until the long
 * window is past the break, a reading is taken only if the sound since the break repeats at its
 * period and not at half or a third of it (heardSinceBreak).
 *
 * A lone sinusoid (no second partial above the noise) is measured again by maximum likelihood over
 * the L + D samples the frame pair spans (Rife and Boorstyn, 1974; see sineMaximumLikelihood): its
 * error is then about the Cramér–Rao bound of those samples (the phase vocoder on Blackman–Harris
 * frames: about 1.7× the bound; on Hann frames, used before, about 1.45×).
 */
#include "PitchEngine.hpp"

#include <fftw3.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <string>

namespace ctuner {
namespace {

// The FFTW planner is not thread-safe; executing a plan is.
std::mutex &plannerMutex() {
    static std::mutex m;
    return m;
}

constexpr double kPi = 3.14159265358979323846;
const char *const kNoteNames[12] = {"C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"};

std::size_t nextPow2(std::size_t n) {
    std::size_t p = 1;
    while (p < n) p <<= 1;
    return p;
}

/// Σ x_j and Σ x_j² in double, in eight running sums (four pairs of SIMD lanes) so that the additions
/// overlap: a single running sum waits out the adder's latency on every sample.
typedef float Floats2 __attribute__((vector_size(8)));
typedef double Doubles2 __attribute__((vector_size(16)));
template <bool squares> double sumOf(const float *x, std::size_t n) {
    Doubles2 s[4] = {{0, 0}, {0, 0}, {0, 0}, {0, 0}};
    std::size_t j = 0;
    for (; j + 8 <= n; j += 8) {
        for (std::size_t k = 0; k < 4; ++k) {
            Floats2 pair;
            std::memcpy(&pair, x + j + 2 * k, sizeof pair);
            Doubles2 d = __builtin_convertvector(pair, Doubles2);
            s[k] += squares ? d * d : d;
        }
    }
    Doubles2 total = (s[0] + s[1]) + (s[2] + s[3]);
    double sum = total[0] + total[1];
    for (; j < n; ++j) sum += squares ? double(x[j]) * double(x[j]) : double(x[j]);
    return sum;
}
double sumOf(const float *x, std::size_t n) { return sumOf<false>(x, n); }
double sumOfSquares(const float *x, std::size_t n) { return sumOf<true>(x, n); }

double princarg(double phase) { return phase - 2.0 * kPi * std::floor(phase / (2.0 * kPi) + 0.5); }

/// x at the fractional position i − (whole + frac), linearly between its two neighbours (the
/// attack checks compare a signal with itself one period earlier; periods are not whole samples).
double lagged(const float *x, std::size_t i, std::size_t whole, double frac) {
    return (1 - frac) * double(x[i - whole]) + frac * double(x[i - whole - 1]);
}

/// A real-input FFT of one size: input buffer, complex output, plans. Owns them all.
struct RealFFT {
    std::size_t size = 0;
    float *in = nullptr;
    fftwf_complex *out = nullptr;
    float *acf = nullptr;  // the inverse's output (for autocorrelation), so `in` keeps its zero padding
    fftwf_plan forward = nullptr;
    fftwf_plan inverse = nullptr;  // complex `out` → real `acf`
    std::size_t dirty = 0;         // in[dirty…size) is zero (the r2c plan leaves `in` as it was)

    explicit RealFFT(std::size_t n, bool withInverse) : size(n) {
        in = fftwf_alloc_real(n);
        out = fftwf_alloc_complex(n / 2 + 1);
        if (withInverse) acf = fftwf_alloc_real(n);
        if (!in || !out || (withInverse && !acf)) {
            fftwf_free(in);
            fftwf_free(out);
            fftwf_free(acf);
            throw std::bad_alloc();
        }
        std::lock_guard<std::mutex> lock(plannerMutex());
        forward = fftwf_plan_dft_r2c_1d(int(n), in, out, FFTW_ESTIMATE);
        if (withInverse) inverse = fftwf_plan_dft_c2r_1d(int(n), out, acf, FFTW_ESTIMATE);
        if (!forward || (withInverse && !inverse)) throw std::runtime_error("FFTW could not make a plan");
        std::fill(in, in + n, 0.0f);
    }
    /// After in[0…n) was written: zero the rest of the input, touching only what an earlier, longer
    /// frame left there.
    void padFrom(std::size_t n) {
        if (dirty > n) std::fill(in + n, in + dirty, 0.0f);
        dirty = n;
    }
    ~RealFFT() {
        {
            std::lock_guard<std::mutex> lock(plannerMutex());
            if (forward) fftwf_destroy_plan(forward);
            if (inverse) fftwf_destroy_plan(inverse);
        }
        fftwf_free(in);
        fftwf_free(out);
        fftwf_free(acf);
    }
    RealFFT(const RealFFT &) = delete;
    RealFFT &operator=(const RealFFT &) = delete;
};

/// Newest-samples ring: each sample is written twice, so the latest N samples are always contiguous.
struct Ring {
    std::vector<float> data;
    std::size_t capacity = 0;
    std::size_t pos = 0;  // index of the next write in [0, capacity)

    explicit Ring(std::size_t n) : data(2 * n, 0.0f), capacity(n) {}
    void push(float x) {
        data[pos] = x;
        data[pos + capacity] = x;
        if (++pos == capacity) pos = 0;
    }
    /// push() of n ≤ capacity samples.
    void push(const float *x, std::size_t n) {
        while (n > 0) {
            const std::size_t run = std::min(n, capacity - pos);
            std::memcpy(&data[pos], x, run * sizeof(float));
            std::memcpy(&data[pos + capacity], x, run * sizeof(float));
            pos += run;
            if (pos == capacity) pos = 0;
            x += run;
            n -= run;
        }
    }
    /// The newest `n` samples (n ≤ capacity), oldest first, ending `back` samples before the newest.
    const float *latest(std::size_t n, std::size_t back = 0) const {
        return &data[pos + capacity - back - n];
    }
    void clear() {
        std::fill(data.begin(), data.end(), 0.0f);
        pos = 0;
    }
};

struct Partial {
    int k;
    double frequency;
    double magnitude;
};

} // namespace

struct PitchEngine::Impl {
    // Configuration.
    double fs;
    double a4;
    double minFrequency, maxFrequency;
    double gateDb;
    std::size_t hop;

    // Input history at full rate and decimated.
    std::size_t decimation;
    double fsDecimated;
    Ring history;
    Ring decimated;
    double decimationSum = 0;
    std::size_t decimationCount = 0;
    std::size_t sinceHop = 0;
    unsigned long long consumed = 0;

    // NSDF over the decimated history.
    std::size_t nsdfWindow;
    std::size_t minLag, maxLag;
    RealFFT nsdfFFT;
    std::size_t shortWindow, shortMaxLag;  // the newest 45 ms, for quick note changes
    RealFFT shortFFT;
    std::vector<double> nsdf;

    // Refinement.
    std::size_t frameMin, frameMax;
    std::vector<std::unique_ptr<RealFFT>> frameFFTs;  // sizes nextPow2(frameMin) … nextPow2(frameMax)
    std::vector<float> previousSpectrum;  // spectrum of the earlier frame of the pair (re, im interleaved)
    // Windows of the lengths used lately (the refinement frame, the octave guard's frame; a note's
    // length moves by a sample now and then), so each is computed once.
    struct WindowSlot {
        std::vector<float> values;
        std::size_t length = 0;
        unsigned long long used = 0;
    };
    std::array<WindowSlot, 4> windows;
    unsigned long long windowClock = 0;
    const float *window = nullptr;  // the window fillWindow() chose last
    unsigned hopsSinceOctaveCheck = 0;
    double octaveFactor = 1;   // the octave guard's answer (×1 or ×½) …
    double checkedCoarse = 0;  // … for this period (as Hz)
    std::vector<float> magnitudes;
    std::size_t magnitudesDirty = 0;  // magnitudes[magnitudesDirty…) are zero
    std::vector<float> scratch;
    std::vector<std::uint32_t> floorCounts;  // the noise floor's radix histogram, all zero between uses
    std::vector<Partial> partials;
    std::vector<Partial> rescan;  // the next pass's partials (refine)
    std::size_t levelWindow;
    double lastFrequency = 0;           // the previous pitched result, for octave hysteresis
    double recentFrequency = 0;         // the last pitched result, kept across short dropouts
    unsigned long long recentAt = 0;    // input sample count of that result
    unsigned long long heldSince = 0;   // input sample count when the current note began
    struct Period {
        double lag = 0;      // in decimated samples (fractional); 0 when none
        double clarity = 0;  // the NSDF at that lag
    };
    bool hadBreak = false;              // an attack was heard over the note read last …
    unsigned long long breakAt = 0;     // … starting at this input sample count

    explicit Impl(const ct_config &c)
        : fs(c.sample_rate), a4(c.a4), minFrequency(c.min_frequency), maxFrequency(c.max_frequency),
          gateDb(c.gate_db), hop(std::size_t(std::lround(c.sample_rate * c.hop_seconds))),
          decimation(std::max<std::size_t>(1, std::size_t(c.sample_rate / 20000.0))),
          fsDecimated(c.sample_rate / double(std::max<std::size_t>(1, std::size_t(c.sample_rate / 20000.0)))),
          history(historyLength(c)), decimated(decimatedLength(c)),
          nsdfWindow(std::size_t(std::ceil(3.5 * fsDecimated / c.min_frequency))),
          minLag(std::max<std::size_t>(2, std::size_t(std::floor(fsDecimated / c.max_frequency)))),
          maxLag(std::size_t(std::ceil(fsDecimated / c.min_frequency)) + 2),
          nsdfFFT(nextPow2(nsdfWindow + maxLag + 1), true),
          shortWindow(std::min(nsdfWindow, std::size_t(std::ceil(0.045 * fsDecimated)))),
          shortMaxLag(std::min(maxLag, shortWindow / 3)),
          shortFFT(nextPow2(shortWindow + shortMaxLag + 1), true), nsdf(maxLag + 3, 0.0),
          frameMin(std::size_t(std::ceil(0.032 * c.sample_rate))),
          frameMax(std::size_t(std::ceil(6.0 * c.sample_rate / c.min_frequency))),
          levelWindow(std::size_t(std::ceil(0.05 * c.sample_rate))) {
        frameMax = std::max(frameMax, frameMin);
        for (std::size_t n = nextPow2(frameMin); n <= nextPow2(frameMax); n <<= 1)
            frameFFTs.emplace_back(new RealFFT(n, false));
        std::size_t biggest = nextPow2(frameMax);
        previousSpectrum.resize(2 * (biggest / 2 + 1));
        for (WindowSlot &w : windows) w.values.resize(frameMax);
        magnitudes.resize(biggest / 2 + 1);
        scratch.resize(biggest / 2 + 1);
        floorCounts.assign(std::size_t(1) << 12, 0);
        partials.reserve(64);
        rescan.reserve(64);
    }

    static void validate(const ct_config &c) {
        if (!(c.sample_rate >= 8000 && c.sample_rate <= 192000))
            throw std::invalid_argument("sample rate must be between 8000 and 192000 Hz");
        if (!(c.a4 >= 400 && c.a4 <= 480)) throw std::invalid_argument("A4 must be between 400 and 480 Hz");
        if (!(c.min_frequency >= 20 && c.max_frequency > c.min_frequency * 2))
            throw std::invalid_argument("frequency range must start at 20 Hz or above and span an octave");
        if (!(c.hop_seconds >= 0.001 && c.hop_seconds <= 0.1))
            throw std::invalid_argument("hop must be between 1 and 100 ms");
        if (!std::isfinite(c.gate_db)) throw std::invalid_argument("gate must be a finite level in dBFS");
    }
    static std::size_t historyLength(const ct_config &c) {
        std::size_t frameMax = std::size_t(std::ceil(6.0 * c.sample_rate / c.min_frequency));
        return 2 * frameMax + 16 + std::size_t(std::ceil(0.05 * c.sample_rate));
    }
    static std::size_t decimatedLength(const ct_config &c) {
        std::size_t d = std::max<std::size_t>(1, std::size_t(c.sample_rate / 20000.0));
        double fsd = c.sample_rate / double(d);
        return std::size_t(std::ceil(3.5 * fsd / c.min_frequency)) + 4;
    }

    RealFFT &fftFor(std::size_t length) {
        std::size_t want = nextPow2(length);
        for (auto &f : frameFFTs)
            if (f->size >= want) return *f;
        return *frameFFTs.back();
    }

    // ---- Stage 1: NSDF period decision on the decimated history -------------------------------
    /// The note read last (Hz), or 0: a dropout of up to 0.2 s — a hop with no pitch — does not
    /// forget it.
    double previousFrequency() const {
        if (lastFrequency > 0) return lastFrequency;
        return consumed - recentAt < (unsigned long long)(0.2 * fs) ? recentFrequency : 0;
    }

    /// The MPM period of the newest W decimated samples, searching lags minLag…lagLimit.
    Period nsdfPeriod(RealFFT &f, std::size_t W, std::size_t lagLimit) {
        const float *x = decimated.latest(W);
        const std::size_t M = f.size;
        // Without its mean: a DC offset makes the autocorrelation positive at every lag, so the NSDF
        // would never cross zero and no key maximum (no pitch) would be found.
        const float mean = float(sumOf(x, W) / double(W));
        for (std::size_t j = 0; j < W; ++j) f.in[j] = x[j] - mean;
        f.padFrom(W);
        const float *centred = f.in;  // kept by the r2c plan
        auto xc = [&](std::size_t j) { return double(centred[j]); };
        fftwf_execute(f.forward);
        for (std::size_t i = 0; i < M / 2 + 1; ++i) {
            float re = f.out[i][0], im = f.out[i][1];
            f.out[i][0] = re * re + im * im;
            f.out[i][1] = 0.0f;
        }
        fftwf_execute(f.inverse);  // f.acf[τ] = M · r(τ)
        // m(τ) = Σ_{j<W−τ} x_j² + x_{j+τ}², updated from m(τ−1).
        double m = 2.0 * sumOfSquares(centred, W);
        const double scale = 1.0 / double(M);
        const double energy0 = m;
        const std::size_t last = std::min(lagLimit, W - 1);
        const std::size_t end = std::min(last + 2, W);
        // m(τ) first (a running difference), then the ratios in a loop of independent divisions.
        for (std::size_t tau = 0; tau < end; ++tau) {
            if (tau > 0) m -= xc(tau - 1) * xc(tau - 1) + xc(W - tau) * xc(W - tau);
            nsdf[tau] = m;
        }
        const double tiny = 1e-12 * energy0;
        for (std::size_t tau = 0; tau < end; ++tau) {
            const double mt = nsdf[tau];
            double r = double(f.acf[tau]) * scale;
            nsdf[tau] = (mt > tiny && mt > 0) ? 2.0 * r / mt : 0.0;
        }
        // Key maxima: the highest point between each positive-going and negative-going zero crossing.
        auto scan = [&](auto &&visit) {
            std::size_t tau = 1;
            while (tau <= last && nsdf[tau] > 0) ++tau;  // leave the central lobe
            while (tau <= last) {
                while (tau <= last && nsdf[tau] <= 0) ++tau;
                if (tau > last) break;
                std::size_t peak = tau;
                while (tau <= last && nsdf[tau] > 0) {
                    if (nsdf[tau] > nsdf[peak]) peak = tau;
                    ++tau;
                }
                if (tau > last && peak == last) break;  // lobe cut by the lag range: not a whole maximum
                if (peak >= minLag && !visit(peak)) return;
            }
        };
        double best = 0;
        scan([&](std::size_t p) {
            best = std::max(best, nsdf[p]);
            return true;
        });
        if (best <= 0) return {};
        // The first key maximum within 0.85 of the highest: not an octave too low.
        const double threshold = 0.85 * best;
        std::size_t chosen = 0;
        scan([&](std::size_t p) {
            if (nsdf[p] < threshold) return true;
            chosen = p;
            return false;
        });
        if (chosen == 0) return {};
        // Parabolic interpolation of the peak.
        double a = nsdf[chosen - 1], b = nsdf[chosen], c = nsdf[chosen + 1];
        double denom = a - 2 * b + c;
        double shift = (std::abs(denom) > 1e-12) ? 0.5 * (a - c) / denom : 0.0;
        shift = std::max(-0.5, std::min(0.5, shift));
        return {double(chosen) + shift, std::min(1.0, b - 0.25 * (a - c) * shift)};
    }

    /// The period over the long window (3.5 periods of the lowest note), unless a short window of the
    /// newest 45 ms clearly hears another note: after a string change the long window still holds
    /// the old string for a while (and the two together can look periodic at a common subharmonic),
    /// while the short one hears only the new string. A long period beyond the short window's reach
    /// that is a whole multiple of the short one is kept: that is a low note whose harmonic the
    /// short window saw, not a new note.
    /// While the two windows hear different notes clearly (the moment of a string change), no period
    /// is returned at all rather than a wrong one.
    Period decidePeriod() {
        Period longP = nsdfPeriod(nsdfFFT, nsdfWindow, maxLag);
        Period shortP = nsdfPeriod(shortFFT, shortWindow, shortMaxLag);
        if (shortP.lag <= 0 || longP.lag <= 0 || longP.clarity < 0.5) {
            return shortP.clarity >= 0.9 ? shortP : longP;
        }
        const double ratio = longP.lag / shortP.lag;
        const bool same = std::abs(ratio - 1.0) < 0.03;
        const bool multiple = ratio > 1.5 && std::abs(ratio - std::round(ratio)) < 0.03 * ratio;
        const double previous = previousFrequency();
        auto otherNote = [&](double lag) {
            return previous > 0 && std::abs(1200.0 * std::log2(fsDecimated / lag / previous)) > 50;
        };
        // Whether the period is that of the note read last divided by 2, 3 or 4 (within 25 cents).
        auto subharmonicOfPrevious = [&](double lag) {
            if (previous <= 0) return false;
            const double n = previous * lag / fsDecimated;
            return std::round(n) >= 2 && std::round(n) <= 4 && std::abs(1200.0 * std::log2(n / std::round(n))) < 25;
        };
        // The short window agrees: the same period, or a harmonic of a note too low for it to see.
        // Right after a string change, though, the old string still rings under the new one, and the
        // two together repeat at a common subharmonic (A4 then D4: 147 Hz, D3, in both windows): a
        // note other than the last one is taken only once the short window hears it clearly, and one
        // at a subharmonic of the last note (as that common one is) only very clearly.
        if (same) {
            const bool unsure = shortP.clarity < (subharmonicOfPrevious(longP.lag) ? 0.9 : 0.8);
            return (otherNote(longP.lag) && unsure) ? Period{} : longP;
        }
        if (multiple && longP.lag > double(shortMaxLag)) return longP;
        if (shortP.clarity >= 0.9 && shortP.clarity > longP.clarity) return shortP;  // a new note
        if (shortP.clarity >= 0.8) return {};  // the windows disagree: a note is changing
        // The long window claims a note other than the one just read, and the short window hears
        // something else: the long one may be hearing two strings at once.
        if (previous > 0 && shortP.clarity >= 0.5) {
            double cents = 1200.0 * std::log2(fsDecimated / longP.lag / previous);
            if (std::abs(cents) > 50 && std::abs(cents - 1200) > 50) return {};
        }
        return longP;
    }

    // ---- Stage 2: phase-vocoder refinement of the partials -----------------------------------------
    /// Points `window` at a 4-term Blackman–Harris window of L samples, computed unless cached.
    void fillWindow(std::size_t L) {
        WindowSlot *slot = &windows[0];
        for (WindowSlot &w : windows) {
            if (w.length == L) {
                w.used = ++windowClock;
                window = w.values.data();
                return;
            }
            if (w.used < slot->used) slot = &w;  // else the least recently used one is refilled
        }
        slot->length = L;
        slot->used = ++windowClock;
        float *const values = slot->values.data();
        window = values;
        // 4-term Blackman–Harris, cos(kθ) from cos θ by Chebyshev recurrence (no trig per
        // sample). The window is symmetric, so only its first half is computed, by four independent
        // rotations e^{i n θ} (n ≡ j mod 4, each stepped by e^{i 4θ}), which the CPU runs side by side.
        const double a0 = 0.35875, a1 = 0.48829, a2 = 0.14128, a3 = 0.01168;
        const double step = 2.0 * kPi / double(L - 1);
        constexpr std::size_t kLanes = 4;
        double cr[kLanes], ci[kLanes];
        for (std::size_t j = 0; j < kLanes; ++j) {
            cr[j] = std::cos(double(j) * step);
            ci[j] = std::sin(double(j) * step);
        }
        const double sr = std::cos(kLanes * step), si = std::sin(kLanes * step);
        const std::size_t half = (L + 1) / 2;  // values up to ⌈half/4⌉·4 ≤ L are written, then mirrored
        for (std::size_t n = 0; n < half; n += kLanes) {
            for (std::size_t j = 0; j < kLanes; ++j) {
                double c1 = cr[j], c2 = 2 * c1 * c1 - 1, c3 = c1 * (2 * c2 - 1);
                values[n + j] = float(a0 - a1 * c1 + a2 * c2 - a3 * c3);
                double nr = cr[j] * sr - ci[j] * si, ni = cr[j] * si + ci[j] * sr;
                cr[j] = nr;
                ci[j] = ni;
            }
            if ((n & 1023) == 1020) {  // renormalise against drift
                for (std::size_t j = 0; j < kLanes; ++j) {
                    double mag = std::sqrt(cr[j] * cr[j] + ci[j] * ci[j]);
                    cr[j] /= mag;
                    ci[j] /= mag;
                }
            }
        }
        for (std::size_t n = 0; n < L / 2; ++n) values[L - 1 - n] = values[n];
    }

    /// Windowed, zero-padded DFT of the L samples ending `back` samples before the newest.
    void spectrum(RealFFT &f, std::size_t L, std::size_t back) {
        const float *x = history.latest(L, back);
        for (std::size_t n = 0; n < L; ++n) f.in[n] = x[n] * window[n];
        f.padFrom(L);
        fftwf_execute(f.forward);
    }

    /// Median magnitude up to 8 kHz of the spectrum in `magnitudes` (a noise-floor estimate).
    double noiseFloor(std::size_t bins, double binHz) {
        std::size_t n = std::min(bins, std::size_t(std::min(8000.0, fs / 2) / binHz) + 1);
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
            ++floorCounts[b];
            low = std::min(low, b);
            high = std::max(high, b);
        }
        std::uint32_t bucket = low;
        std::size_t below = 0;
        while (below + floorCounts[bucket] <= k) below += floorCounts[bucket++];
        std::fill(floorCounts.begin() + low, floorCounts.begin() + high + 1, 0u);
        std::size_t c = 0;
        for (std::size_t i = 0; i < n; ++i) {
            scratch[c] = magnitudes[i];
            c += key(magnitudes[i]) == bucket;
        }
        std::nth_element(scratch.begin(), scratch.begin() + (k - below), scratch.begin() + c);
        return scratch[k - below];
    }

    /// The highest local maximum of `magnitudes` within ±`radius` Hz of `centre`, or 0.
    double peakNear(double centre, double radius, double binHz, std::size_t bins) const {
        return peakAt(centre, radius, binHz, bins).magnitude;
    }

    struct Peak {
        double frequency = 0;  // Hz, interpolated on the log-magnitudes
        double magnitude = 0;
    };

    /// The highest local maximum within ±`radius` Hz of `centre`, with its interpolated frequency.
    Peak peakAt(double centre, double radius, double binHz, std::size_t bins) const {
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

    /// Octave guard: is the fundamental of coarse/2 there after all? Then the period the NSDF chose is
    /// half the true one (a string whose fundamental has faded under a strong 2nd partial). Measured
    /// on a frame six periods of coarse/2 long, where the partials of coarse/2 are resolved.
    bool subharmonicPresent(double coarse) {
        const double half = coarse / 2;
        std::size_t L = std::size_t(std::ceil(6.0 * fs / half));
        L = std::max(frameMin, std::min(frameMax, L));
        if (half * double(L) / fs < 5.0) return false;  // the frame cannot resolve coarse/2
        RealFFT &f = fftFor(L);
        const std::size_t bins = f.size / 2 + 1;
        const double binHz = fs / double(f.size);
        fillWindow(L);
        spectrum(f, L, 0);
        magnitudesOf(f, bins);
        const double floor = noiseFloor(bins, binHz);
        double strongest = 0;
        for (int k = 1; k <= 4; ++k)
            strongest = std::max(strongest, peakNear(k * coarse, std::max(2 * binHz, 0.02 * k * coarse), binHz, bins));
        // Partials 1 and 3 of coarse/2 (odd multiples: no partial of coarse lies there).
        // They must sit where partials of coarse/2 would, measured against the partial at coarse
        // itself (coarse is only good to a few cents): the first within 20 cents of half of it, the
        // third within −20…+25 cents of one and a half times it (real strings are stiff and their weak
        // partials hard to place exactly). A bass's body thump near coarse/2 (FluidR3's acoustic bass
        // G2: 48.4 Hz with a "third" 33 cents off) does not line up so.
        Peak second = peakAt(coarse, std::max(1.5 * binHz, 0.02 * coarse), binHz, bins);
        Peak firstPeak = peakAt(half, std::max(1.5 * binHz, 0.02 * half), binHz, bins);
        Peak thirdPeak = peakAt(3 * half, std::max(1.5 * binHz, 0.02 * 3 * half), binHz, bins);
        if (second.magnitude <= 0 || firstPeak.magnitude <= 0 || thirdPeak.magnitude <= 0) return false;
        // Hysteresis: a string that was reading at coarse/2 keeps that octave as its fundamental fades.
        // (A dropout of up to 0.2 s — a hop where the two windows disagreed — does not end that.)
        // Its weak third partial is then only asked to be within ±50 cents of where it belongs: a
        // peak 20–40 dB down, interpolated on a six-period frame, can measure 20 cents off (FluidR3's
        // steel guitar E2 read E3 for 50 ms in mid-note so).
        const double previous = previousFrequency();
        const bool wasBelow = previous > 0 && std::abs(std::log2(half / previous)) < 0.05;
        double firstCents = 1200.0 * std::log2(firstPeak.frequency / (second.frequency / 2));
        double thirdCents = 1200.0 * std::log2(thirdPeak.frequency / (1.5 * second.frequency));
        if (std::abs(firstCents) > 20) return false;
        if (wasBelow ? std::abs(thirdCents) > 50 : (thirdCents < -20 || thirdCents > 25)) return false;
        const double first = firstPeak.magnitude, third = thirdPeak.magnitude;
        if (strongest <= 0 || first < 10.0 * floor || third < 10.0 * floor) return false;
        if (wasBelow) return first >= 0.01 * strongest && third >= 0.00316 * strongest;  // −40, −50 dB
        return first >= 0.0316 * strongest && third >= 0.01 * strongest;                  // −30, −40 dB
    }

    /// Where the magnitude peak at bin `peak` lies, in bins: a parabola through the log-magnitudes of
    /// it and its two neighbours (exact for a Gaussian main lobe; a small fraction of a bin off for
    /// the Blackman–Harris one).
    double interpolatedPeak(long peak) const {
        double a = std::log(magnitudes[peak - 1] + 1e-30), b = std::log(magnitudes[peak] + 1e-30),
               c = std::log(magnitudes[peak + 1] + 1e-30);
        double denom = a - 2 * b + c;
        return double(peak) + (denom < 0 ? std::max(-0.5, std::min(0.5, 0.5 * (a - c) / denom)) : 0.0);
    }

    /// The frequency of the partial whose DFT peak is at bin `peak`, from the phase advance between
    /// the older frame (in `older`) and the newer one (in `f.out`), D samples later. The advance is
    /// known only modulo 2π, so it is unwrapped around the peak's position interpolated on the
    /// log-magnitudes (within a small fraction of a bin, far inside the ±M/(2D) bins it must be).
    double phaseVocoder(const RealFFT &f, const std::vector<float> &older, long peak, std::size_t D) const {
        double omegaRef = 2.0 * kPi * interpolatedPeak(peak) / double(f.size);
        double phaseNew = std::atan2(f.out[peak][1], f.out[peak][0]);
        double phaseOld = std::atan2(older[2 * peak + 1], older[2 * peak]);
        double deviation = princarg(phaseNew - phaseOld - omegaRef * double(D));
        return (omegaRef + deviation / double(D)) * fs / (2.0 * kPi);
    }

    /// Spectra of the frame pair (L samples each, the older one D samples earlier) into
    /// `previousSpectrum` and `f.out`, and the newer one's magnitudes into `magnitudes`.
    void framePair(RealFFT &f, std::size_t L, std::size_t D) {
        const std::size_t bins = f.size / 2 + 1;
        fillWindow(L);
        spectrum(f, L, D);
        // Only the analysed bins (and a margin): no peak is looked for above them.
        std::memcpy(previousSpectrum.data(), f.out, std::min(bins, analysedBins(f, bins) + 8) * sizeof(fftwf_complex));
        spectrum(f, L, 0);
        magnitudesOf(f, bins);
    }

    /// |X| of the first `bins` bins of `f.out`, up to the highest frequency the analysis looks at.
    void magnitudesOf(const RealFFT &f, std::size_t bins) {
        const std::size_t n = analysedBins(f, bins);
        for (std::size_t i = 0; i < n; ++i)
            magnitudes[i] = std::sqrt(f.out[i][0] * f.out[i][0] + f.out[i][1] * f.out[i][1]);
        if (magnitudesDirty > n) std::fill(magnitudes.begin() + n, magnitudes.begin() + magnitudesDirty, 0.0f);
        magnitudesDirty = n;
    }
    /// How many bins of a spectrum of `f` the analysis looks at (up to 8.2 kHz).
    std::size_t analysedBins(const RealFFT &f, std::size_t bins) const {
        return std::min(bins, std::size_t(std::min(0.5 * fs, 8200.0) * double(f.size) / fs) + 4);
    }

    /// How far a stiff string's partial k lies above k·f1: sqrt((1 + B·k²)/(1 + B)).
    static double stiffness(double k, double B) { return std::sqrt((1 + B * k * k) / (1 + B)); }
    /// Where the fitted series f_k = k·f1·sqrt((1 + B·k²)/(1 + B)) puts partial k.
    static double seriesAt(int k, double f1, double B) { return double(k) * f1 * stiffness(k, B); }

    /// A peak looked for as partial k: the highest bin within ±radius Hz of `predicted` in
    /// `magnitudes`, with its phase-vocoder frequency. None (bin < 0) when that bin rises into the
    /// edge of the range (the peak is outside it), or is under 8× the noise floor or −60 dB under
    /// the strongest peak (window sidelobes of the strong ones reach −92 dB).
    struct Candidate {
        long bin = -1;
        double magnitude = 0;
        double frequency = 0;
    };
    Candidate candidateNear(const RealFFT &f, std::size_t D, double predicted, double radius, double binHz,
                            double floor, double strongest) const {
        const std::size_t bins = f.size / 2 + 1;
        const long lo = std::max(2L, long(std::floor((predicted - radius) / binHz)));
        const long hi = std::min(long(bins) - 3, long(std::ceil((predicted + radius) / binHz)));
        if (hi <= lo) return {};
        long peak = lo;
        for (long i = lo + 1; i <= hi; ++i)
            if (magnitudes[i] > magnitudes[peak]) peak = i;
        if (peak == lo || peak == hi) return {};
        const double mag = magnitudes[peak];
        if (mag < 8.0 * floor || mag < 1e-3 * strongest) return {};
        return {peak, mag, phaseVocoder(f, previousSpectrum, peak, D)};
    }

    /// Refines `coarse` (Hz). Returns the first-partial frequency, 0 when no partial was measured, or
    /// −1 when the partials say `coarse` is wrong (no pitch for this hop).
    /// The frames are six periods long; their offset D grows from L/2 at a note's onset to L once the
    /// note has held for that long (more precision for a held note, quick lock on a new one).
    double refine(double coarse, std::size_t heldFor) {
        std::size_t L = std::size_t(std::ceil(6.0 * fs / coarse));
        L = std::max(frameMin, std::min(frameMax, L));
        const std::size_t D = std::max(L / 2, std::min(L, heldFor));
        RealFFT &f = fftFor(L);
        const std::size_t M = f.size, bins = M / 2 + 1;
        const double binHz = fs / double(M);
        framePair(f, L, D);
        const double floor = noiseFloor(bins, binHz);

        const double limit = std::min(0.45 * fs, 8000.0);
        partials.clear();
        double f1 = coarse, B = 0;
        const std::size_t limitBin = std::min(bins - 1, std::size_t(limit / binHz));
        const double strongest = *std::max_element(magnitudes.begin() + 1, magnitudes.begin() + limitBin + 1);
        // Where partial k is looked for: within `relative` of its predicted frequency, but never
        // closer than 3 bins (the window's main lobe) nor farther than 0.3·f1 (the next partial).
        auto searchRadius = [&](double predicted, double relative) {
            return std::min(std::max(3.0 * binHz, predicted * relative), 0.3 * f1);
        };
        // First pass, partial by partial: each is looked for where the fit of those found so far puts
        // it, within a radius that narrows as they add up.
        Partial aside{0, 0, 0};  // a fundamental's peak whose phase advance was off (see below)
        for (int k = 1; k <= 24; ++k) {
            const double predicted = seriesAt(k, f1, B);
            if (predicted > limit) break;
            double relative = partials.empty() ? 0.03 : (partials.size() < 3 ? 0.006 : 0.003);
            const double radius = searchRadius(predicted, relative);
            const Candidate c = candidateNear(f, D, predicted, radius, binHz, floor, strongest);
            if (c.bin < 0 || std::abs(c.frequency - predicted) > radius) continue;
            // The first partial taken decides where all the others are looked for. Its peak is
            // searched over the window's main lobe (±3 bins: ±5 semitones on a low string), but its
            // frequency must be within 3 % of where the period put it: a stray peak beside a weak
            // fundamental is not it (FluidR3's overdriven E2 has one at 97 Hz; taken, it sent the
            // search astray, and 15 of 112 steady hops read nothing). Just after an onset, though,
            // the older frame is partly silence and the phase advance of a true fundamental can be
            // 3 % off where its magnitude peak is not, and so can a lone sine's in strong noise: such
            // a peak (within half a bin) is kept aside, and measured as a lone sinusoid if no other
            // partial is found.
            if (partials.empty() && std::abs(c.frequency - predicted) > 0.03 * predicted) {
                const double at = interpolatedPeak(c.bin) * binHz;
                if (k == 1 && std::abs(at - predicted) <= std::max(0.5 * binHz, 0.03 * predicted)) aside = {1, at, c.magnitude};
                continue;
            }
            partials.push_back({k, c.frequency, c.magnitude});
            fit(f1, B);
        }
        // Then all partials again, each looked for where the fit of all of them puts it, until the
        // set stops changing (a few passes at most; a set that swaps back and forth keeps the last).
        // The first pass depends on the order it met them in: a partial is taken or passed over by a
        // fit of the lower ones alone, and the period it starts from is only good to a few percent.
        // FluidR3's overdriven A2 has its fundamental 30 ¢ flat of its 3rd–5th partials and its high
        // ones 20–35 ¢ sharp, which pull the period 25 ¢ sharp: the fundamental fails the 3 % test
        // against the period but lies within it of the fit. Which partials a hop met first changed
        // with where the hop fell, and so did its reading; passed over so, a render and its
        // resampled copy read up to 0.3 ¢ apart in median. A partial must lie within 3 % of the fit
        // (a stray peak beside a weak fundamental still does not count) and within the first pass's
        // final radius.
        for (int pass = 0; pass < 4 && partials.size() >= 3; ++pass) {
            rescan.clear();
            for (int k = 1; k <= 24; ++k) {
                const double predicted = seriesAt(k, f1, B);
                if (predicted > limit) break;
                const double radius = searchRadius(predicted, 0.003);
                const Candidate c = candidateNear(f, D, predicted, radius, binHz, floor, strongest);
                if (c.bin >= 0 && std::abs(c.frequency - predicted) <= std::min(radius, 0.03 * predicted))
                    rescan.push_back({k, c.frequency, c.magnitude});
            }
            if (rescan.size() < 3) break;
            const bool settled = std::equal(rescan.begin(), rescan.end(), partials.begin(), partials.end(),
                                            [](const Partial &a, const Partial &b) { return a.k == b.k; });
            partials.swap(rescan);
            fit(f1, B);
            if (settled) break;
        }
        if (partials.empty() && aside.k == 1) {
            partials.push_back(aside);
            f1 = aside.frequency;
        }
        if (partials.empty()) return 0;
        // Only even partials, or odd ones 30 dB under the even ones: the sound repeats at twice
        // `coarse` (an octave too low was chosen, as a moment after a string change can make the NSDF
        // do). Nothing is reported for this hop. (A string's fundamental can sit 26 dB under its 2nd
        // partial — FluidR3's nylon E2 — but then its 3rd and 5th partials are there.)
        {
            double odd = 0, even = 0;
            for (const Partial &p : partials) {
                double &loudest = p.k % 2 ? odd : even;
                loudest = std::max(loudest, p.magnitude);
            }
            if (even > 0 && odd < 0.0316 * even) return -1;
        }
        if (partials.size() == 1 && partials.front().k == 1) {
            // A lone sinusoid (a sine, a flute-like tone): no neighbour can leak into it, so it is
            // measured again by maximum likelihood over all L + D samples the frame pair spans.
            double frequency = sineMaximumLikelihood(f1, L + D);
            if (std::abs(frequency - f1) < 3.0 * binHz) f1 = frequency;
        }
        return f1;
    }

    /// How many of the newest N samples the tone at `frequency` has sounded for (N when it filled
    /// them all), for sineMaximumLikelihood.
    /// The model is a sinusoid of constant amplitude over the whole window: a window that begins
    /// before the tone did (silence, then the onset) would bias it: samples at the window's edges
    /// weigh most in a frequency estimate, and a quarter period of silence in 12 periods moves it
    /// by cents. Leading pieces of the window that are quieter than half the next one (or than a
    /// tenth of the loudest) are left out. A piece is half a period long where that makes at most
    /// 128 pieces: the energy of half a period of a sine does not depend on its phase.
    std::size_t sinceOnset(double frequency, std::size_t N) const {
        constexpr std::size_t kPieces = 128;
        const std::size_t piece = std::max<std::size_t>(
            std::size_t(std::lround(0.5 * fs / frequency)), (N + kPieces - 1) / kPieces);
        const std::size_t count = std::min(kPieces, N / std::max<std::size_t>(1, piece));
        const float *all = history.latest(N);
        double energy[kPieces], loudest = 0;
        for (std::size_t c = 0; c < count; ++c) {
            energy[c] = sumOfSquares(all + (N - count * piece) + c * piece, piece);
            loudest = std::max(loudest, energy[c]);
        }
        std::size_t quiet = 0;
        while (quiet + 1 < count &&
               (energy[quiet] < 0.1 * loudest || energy[quiet] < 0.5 * energy[quiet + 1]))
            ++quiet;
        // Within the first piece kept, the tone begins at the first sample above a fifth of its
        // amplitude (what is left out before it is at most the part of a cycle near a zero).
        // A 2 ms fade-in at that edge still moves a B0 sine by 0.3 cents.
        const double amplitude = std::sqrt(2.0 * loudest / double(piece));
        const std::size_t first = (N - count * piece) + quiet * piece, end = first + piece;
        std::size_t begin = first;
        while (begin < end && std::abs(all[begin]) < 0.2 * amplitude) ++begin;
        // After an onset, the first 5 ms — the attack's own shape — are left out as well. An onset
        // is in or just before the window when pieces were left out, or when the first piece kept
        // is quieter than the next (a steady sine's half periods differ by well under 1 %; a
        // decaying one's older pieces are the louder).
        const bool onset = quiet > 0 || (quiet + 1 < count && energy[quiet] < 0.97 * energy[quiet + 1]);
        if (onset) begin += std::size_t(0.005 * fs);
        return (begin < N && N - begin >= piece) ? N - begin : N;
    }

    /// The maximum-likelihood frequency of one real sinusoid plus a constant in white noise, over the
    /// newest N samples, searched within a tenth of a bin (of N) around `start` Hz: the ω that
    /// maximises the energy of x's least-squares projection onto {cos ωn, sin ωn, 1} (D. C. Rife and
    /// R. R. Boorstyn, "Single-tone parameter estimation from discrete-time observations", IEEE Trans.
    /// Inf. Theory 20(5), 1974: it attains the Cramér–Rao bound above the threshold SNR). With n
    /// centred on the window (n' = n − (N−1)/2) the sine is orthogonal to the other two and the
    /// normal equations have closed forms; the correlations at ω0 + δ/h (h = N/2) come from one pass
    /// over the samples as a Taylor series in δ, T_k = Σ x_n u_n^k e^{−iω0 n'}, u = n'/h.
    double sineMaximumLikelihood(double start, std::size_t N) const {
        constexpr int K = 6;
        N = sinceOnset(start, N);
        const float *x = history.latest(N);
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
            double a = -0.1 * kPi, b = 0.1 * kPi;
            double c1 = b - g * (b - a), c2 = a + g * (b - a);
            double j1 = energy(c1), j2 = energy(c2);
            for (int i = 0; i < 48; ++i) {
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

    /// Weighted least-squares fit of f_k = k·f1·sqrt((1+B·k²)/(1+B)) to the measured partials.
    void fit(double &f1, double &B) const {
        // Weights ∝ k²·A_k²: the inverse variance of y_k = f_k / k.
        double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
        int distinct = 0;
        for (const Partial &p : partials) {
            double k = p.k, w = k * k * p.magnitude * p.magnitude;
            double x = k * k - 1, y = p.frequency / k;
            sw += w;
            sx += w * x;
            sy += w * y;
            sxx += w * x * x;
            sxy += w * x * y;
            ++distinct;
        }
        if (sw <= 0) return;
        B = 0;
        if (distinct >= 3) {
            double det = sw * sxx - sx * sx;
            if (det > 1e-12 * sw * sxx) {
                double a = (sxx * sy - sx * sxy) / det;
                double b = (sw * sxy - sx * sy) / det;
                if (a > 0) B = std::max(0.0, std::min(2e-3, 2.0 * b / a));
            }
        } else if (partials.front().k == 1) {
            // Too few partials to tell inharmonicity from noise: trust the first partial itself.
            f1 = partials.front().frequency;
            return;
        }
        // f1 for that B, with the exact model: y_k = f1 · g_k(B).
        double num = 0, den = 0;
        for (const Partial &p : partials) {
            double k = p.k, w = k * k * p.magnitude * p.magnitude;
            double g = stiffness(k, B);
            num += w * (p.frequency / k) * g;
            den += w * g * g;
        }
        if (den > 0) f1 = num / den;
    }

    // ---- Attacks -------------------------------------------------------------------------------------
    /// Whether the newest hop holds new sound over the note read last: a 2.5 ms piece of it that no
    /// longer repeats at that note's period, while the 20 ms (at least two periods) before it did,
    /// six times better. The measure is Σ(x[n] − x[n−T])² over the piece, over twice the energy the
    /// piece would have at the average power of those earlier 20 ms (not its own energy: a low
    /// string's waveform is spiky, and at a quiet moment of its period, or in noise, a piece's own
    /// energy is small). A ringing string, its vibrato or its stiffness barely change it; a pluck —
    /// of another string or of the same one — breaks it at once, where the analysis windows still
    /// hear mostly the old string for tens of milliseconds. The piece's measure must exceed 0.3:
    /// held notes in the benchmark's instrument renders reach 0.22 at most, a pick's attack with 2 ms
    /// of it in the piece about 0.32 (with less, the hop's reading may still be the old string). `at`
    /// is the input sample count where that piece begins.
    bool periodicityBreak(double frequency, unsigned long long &at) const {
        const double lag = fsDecimated / frequency;
        const std::size_t whole = std::size_t(std::floor(lag));
        const double frac = lag - double(whole);
        const std::size_t piece = std::max<std::size_t>(8, std::size_t(0.0025 * fsDecimated));
        const std::size_t pieces = std::max<std::size_t>(1, std::size_t(std::lround(double(hop) / double(decimation))) / piece);
        const std::size_t base = std::max<std::size_t>(std::size_t(0.02 * fsDecimated), 2 * whole + 2);
        const std::size_t span = base + pieces * piece;
        if (span + whole + 2 > decimated.capacity) return false;
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
        if (energy <= 0) return false;
        const double perSample = energy / double(base);  // of x² + lagged², i.e. twice the power
        const double before = differenceBefore / energy;
        for (std::size_t c = 0; c < pieces; ++c) {
            double unused = 0, own = 0;
            const double now = difference(base + c * piece, piece, unused, own) / (perSample * double(piece));
            // New sound, not sound going away: a string being damped also stops repeating, but its
            // power falls (to half or less); a pluck over it keeps or raises the power.
            const bool louder = own / double(piece) >= 0.5 * ownBefore / double(base);
            if (louder && now > 0.3 && now > 6 * before) {
                at = consumed - (unsigned long long)((pieces - c) * piece * decimation);
                return true;
            }
        }
        return false;
    }

    /// Whether the newest `count` decimated samples (those since an attack) repeat at the period of
    /// `frequency`, and not at a half or a third of it: the normalised square difference function
    /// of McLeod and Wyvill over that stretch alone, r(τ) = 2Σx[n]x[n−τ] / Σ(x[n]² + x[n−τ]²), at
    /// τ = P must be at least 0.8, and at P/2 and P/3 under 0.85 of that (the long window's own rule
    /// for which maximum is the period). The stretch must hold two periods. A string plucked an
    /// octave over one still ringing (B0 then B1) repeats at the old period too, so the long window,
    /// half of it still the old string, can read the old note for most of its length.
    bool heardSinceBreak(double frequency, std::size_t count) const {
        const double period = fsDecimated / frequency;
        count = std::min(count, decimated.capacity);
        if (double(count) < 2.0 * period + 2.0) return false;
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
        if (atPeriod < 0.8) return false;
        for (int k = 2; k <= 3; ++k)
            if (period / k >= 2.0 && nsdfAt(period / k) >= 0.85 * atPeriod) return false;
        return true;
    }

    // ---- One hop ------------------------------------------------------------------------------------
    ct_result analyse() {
        ct_result r{};
        r.time = double(consumed) / fs;
        r.note_name = "";
        r.midi_note = -1;

        const float *recent = history.latest(levelWindow);
        double power = sumOfSquares(recent, levelWindow) / double(levelWindow);
        r.level_db = power > 1e-12 ? std::max(-120.0, 10.0 * std::log10(power)) : -120.0;
        if (r.level_db < gateDb) {
            lastFrequency = 0;
            return r;
        }

        if (lastFrequency > 0) {
            unsigned long long at = 0;
            if (periodicityBreak(lastFrequency, at)) {
                hadBreak = true;
                breakAt = at;
            }
        }

        const Period chosen = decidePeriod();
        const double period = chosen.lag, clarity = chosen.clarity;
        r.confidence = std::max(0.0, std::min(1.0, clarity));
        if (period <= 0 || clarity < 0.5) {
            lastFrequency = 0;
            return r;
        }
        double coarse = fsDecimated / period;
        if (coarse < minFrequency * 0.97 || coarse > maxFrequency * 1.03) {
            lastFrequency = 0;
            return r;
        }
        // A period near 2 samples is the Nyquist frequency, not a note (alternating samples would read
        // as ≈ fs/2 — even above it, by the parabolic shift — when max_frequency is near fs/2).
        if (coarse > 0.45 * fsDecimated) {
            lastFrequency = 0;
            return r;
        }
        // The octave guard costs a long FFT: its answer for the same period is kept for up to 50 ms;
        // any other period asks again at once.
        if (coarse / 2 >= minFrequency * 0.97) {
            bool same = checkedCoarse > 0 && std::abs(1200.0 * std::log2(coarse / checkedCoarse)) < 50;
            if (!same || ++hopsSinceOctaveCheck >= std::max<std::size_t>(1, std::size_t(0.05 * fs / double(hop)))) {
                octaveFactor = subharmonicPresent(coarse) ? 0.5 : 1.0;
                checkedCoarse = coarse;
                hopsSinceOctaveCheck = 0;
            }
            coarse *= octaveFactor;
        }

        // A note "holds" while successive readings stay within 50 cents of each other.
        if (lastFrequency <= 0 || std::abs(1200.0 * std::log2(coarse / lastFrequency)) > 50.0) heldSince = consumed;
        double refined = refine(coarse, std::size_t(consumed - heldSince));
        if (refined < 0) {
            lastFrequency = 0;
            return r;
        }
        double frequency = coarse;
        if (refined > 0) {
            // The two stages must agree within 30 cents; when they do not (a distorted attack, noise
            // mistaken for a partial), neither is trusted for this hop.
            if (std::abs(std::log2(refined / coarse)) > 0.025) {
                lastFrequency = 0;
                return r;
            }
            frequency = refined;
        }
        if (!std::isfinite(frequency) || frequency <= 0) return r;
        // After an attack the long window holds mostly what sounded before it, and may still read
        // the old string (or, when the new note is a harmonic of the old one, the two together). Until
        // it has heard past the attack, a reading is taken only if the sound since the attack repeats
        // at its period and not at a half or a third of it.
        if (hadBreak) {
            const unsigned long long since = consumed - breakAt;
            if (since >= nsdfWindow * decimation) {
                hadBreak = false;
            } else if (!heardSinceBreak(frequency, std::size_t(since / decimation))) {
                lastFrequency = 0;
                return r;
            }
        }

        double fractional = 69.0 + 12.0 * std::log2(frequency / a4);
        long midi = std::lround(fractional);
        if (midi < 0 || midi > 127) return r;
        lastFrequency = frequency;
        recentFrequency = frequency;
        recentAt = consumed;
        r.has_pitch = 1;
        r.frequency = frequency;
        r.midi_note = int(midi);
        r.note_name = kNoteNames[midi % 12];
        r.octave = int(midi / 12) - 1;
        r.cents = 100.0 * (fractional - double(midi));
        return r;
    }

    void reset() {
        history.clear();
        decimated.clear();
        decimationSum = 0;
        decimationCount = 0;
        sinceHop = 0;
        consumed = 0;
        lastFrequency = 0;
        recentFrequency = 0;
        recentAt = 0;
        hadBreak = false;
    }
};

PitchEngine::PitchEngine(const ct_config &config) : impl_((Impl::validate(config), new Impl(config))) {}
PitchEngine::~PitchEngine() = default;

void PitchEngine::process(const float *samples, std::size_t count) {
    Impl &e = *impl_;
    float chunk[256];  // the input cleaned, a run at a time (never past the end of a hop)
    while (count > 0) {
        const std::size_t run = std::min({count, e.hop - e.sinceHop, sizeof chunk / sizeof chunk[0]});
        for (std::size_t i = 0; i < run; ++i) {
            float x = samples[i];
            if (!std::isfinite(x)) x = 0.0f;
            chunk[i] = std::max(-4.0f, std::min(4.0f, x));
        }
        e.history.push(chunk, run);
        for (std::size_t i = 0; i < run; ++i) {
            e.decimationSum += chunk[i];
            if (++e.decimationCount == e.decimation) {
                e.decimated.push(float(e.decimationSum / double(e.decimation)));
                e.decimationSum = 0;
                e.decimationCount = 0;
            }
        }
        samples += run;
        count -= run;
        e.consumed += run;
        e.sinceHop += run;
        if (e.sinceHop == e.hop) {
            e.sinceHop = 0;
            ct_result r = e.analyse();
            if (onResultReady) onResultReady(r);
        }
    }
}

void PitchEngine::setA4(double a4) {
    if (a4 >= 400 && a4 <= 480) impl_->a4 = a4;
}

void PitchEngine::reset() { impl_->reset(); }
std::size_t PitchEngine::hopSize() const { return impl_->hop; }
std::size_t PitchEngine::windowSize() const {
    return std::max(impl_->nsdfWindow * impl_->decimation, impl_->frameMax + impl_->frameMax / 2);
}

} // namespace ctuner
