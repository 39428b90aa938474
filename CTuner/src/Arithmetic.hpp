// Arithmetic.hpp — small numeric helpers shared by the engine's units (header only).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstring>

namespace ctuner {

constexpr double kPi = 3.14159265358979323846;

/// The smallest power of two ≥ n (FFT sizes).
inline std::size_t nextPow2(std::size_t n) {
    std::size_t p = 1;
    while (p < n) p <<= 1;
    return p;
}

/// Σ x_j and Σ x_j² in double, in eight running sums (four pairs of SIMD lanes) so that the additions
/// overlap: a single running sum waits out the adder's latency on every sample.
typedef float Floats2 __attribute__((vector_size(8)));
typedef double Doubles2 __attribute__((vector_size(16)));
template <bool squares> inline double sumOf(const float *x, std::size_t n) {
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
inline double sumOf(const float *x, std::size_t n) { return sumOf<false>(x, n); }
inline double sumOfSquares(const float *x, std::size_t n) { return sumOf<true>(x, n); }

/// A phase wrapped into [−π, π).
inline double princarg(double phase) { return phase - 2.0 * kPi * std::floor(phase / (2.0 * kPi) + 0.5); }

/// x at the fractional position i − (whole + frac), linearly between its two neighbours (the
/// attack checks compare a signal with itself one period earlier; periods are not whole samples).
inline double lagged(const float *x, std::size_t i, std::size_t whole, double frac) {
    return (1 - frac) * double(x[i - whole]) + frac * double(x[i - whole - 1]);
}

/// Cents from `reference` to `frequency`.
inline double centsBetween(double frequency, double reference) { return 1200.0 * std::log2(frequency / reference); }

} // namespace ctuner
