// Ring.hpp — the newest samples of a stream, always readable as one contiguous run (header only).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <vector>

namespace ctuner {

/// Newest-samples ring: each sample is written twice, so the latest N samples are always contiguous.
/// Its storage (2 × capacity) is allocated once, in the constructor.
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
    /// push() of n samples, n ≤ capacity.
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

} // namespace ctuner
