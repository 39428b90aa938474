// Decimator.cpp — see Decimator.hpp.
#include "Decimator.hpp"

#include "Arithmetic.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace ctuner {

Decimator::Decimator(std::size_t factor)
    : factor_(factor), taps_(factor > 1 ? kTapsPerFactor * factor - 1 : 1, 1.0f),
      line_(taps_.size() - 1 + kDecimatorBlock, 0.0f) {
    if (factor_ <= 1) return;
    const std::size_t T = taps_.size();
    const double middle = 0.5 * double(T - 1), cutoff = kCutoffOfDecimatedRate / double(factor_);  // cycles per input sample
    std::vector<double> h(T);
    double sum = 0;
    for (std::size_t n = 0; n < T; ++n) {
        const double t = double(n) - middle;
        const double sinc = t == 0 ? 2 * cutoff : std::sin(2 * kPi * cutoff * t) / (kPi * t);
        const double blackman = 0.42 - 0.5 * std::cos(2 * kPi * double(n) / double(T - 1)) +
                                0.08 * std::cos(4 * kPi * double(n) / double(T - 1));
        h[n] = sinc * blackman;
        sum += h[n];
    }
    for (std::size_t n = 0; n < T; ++n) taps_[n] = float(h[n] / sum);
}

void Decimator::push(const float *x, std::size_t n, Ring &out) {
    if (factor_ <= 1) {
        out.push(x, n);
        return;
    }
    const std::size_t T = taps_.size(), kept = T - 1;
    const float *h = taps_.data();
    float *line = line_.data();
    while (n > 0) {
        // The block after the newest T − 1 samples, so that every output's T inputs are contiguous.
        const std::size_t m = std::min(n, kDecimatorBlock);
        std::memcpy(line + kept, x, m * sizeof(float));
        // Input i of the block completes an output when count_ + i + 1 is a multiple of the factor;
        // its T inputs are line[i … i + T − 1] (the block starts at line[T − 1]).
        for (std::size_t i = factor_ - 1 - count_; i < m; i += factor_) {
            const float *r = line + i;
            double acc[4] = {0, 0, 0, 0};
            std::size_t j = 0;
            for (; j + 4 <= T; j += 4)
                for (std::size_t k = 0; k < 4; ++k) acc[k] += double(h[j + k]) * double(r[j + k]);
            for (; j < T; ++j) acc[0] += double(h[j]) * double(r[j]);
            out.push(float((acc[0] + acc[1]) + (acc[2] + acc[3])));
        }
        count_ = (count_ + m) % factor_;
        std::memmove(line, line + m, kept * sizeof(float));
        x += m;
        n -= m;
    }
}

void Decimator::reset() {
    std::fill(line_.begin(), line_.end(), 0.0f);
    count_ = 0;
}

} // namespace ctuner
