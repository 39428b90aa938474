// WindowCache.hpp — 4-term Blackman–Harris windows of the lengths used lately, each computed once.
//
// F. J. Harris, "On the use of windows for harmonic analysis with the discrete Fourier transform",
// Proc. IEEE 66(1), 1978: the 4-term Blackman–Harris window, sidelobes −92 dB, so neighbouring
// partials of a string do not leak into each other's peaks.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

namespace ctuner {

class WindowCache {
public:
    /// Room for windows of up to `maxLength` samples (allocated here, once).
    explicit WindowCache(std::size_t maxLength);

    /// The window of L samples (2 ≤ L ≤ maxLength), computed unless one of the last kSlots lengths
    /// asked for. The pointer stays valid until kSlots other lengths have been asked for.
    const float *get(std::size_t L);

    /// How many lengths are kept: the refinement frame and the octave guard's frame, and a note's
    /// length moving by a sample now and then (BENCHMARKS.md, "CPU ratio": bit-identical results).
    static constexpr std::size_t kSlots = 4;

    /// The window's coherent gain, its mean (the coefficient a0): a sinusoid of amplitude A windowed by
    /// L samples has a spectral peak of magnitude A·kCoherentGain·L/2.
    static constexpr double kCoherentGain = 0.35875;

    /// The window's value at n of L, straight from its definition (for tests).
    static double reference(std::size_t n, std::size_t L);

private:
    struct Slot {
        std::vector<float> values;
        std::size_t length = 0;
        unsigned long long used = 0;
    };
    std::array<Slot, kSlots> slots_;
    unsigned long long clock_ = 0;
};

} // namespace ctuner
