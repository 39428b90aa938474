// Decimator.cpp — see Decimator.hpp.
#include "Decimator.hpp"

#include "Arithmetic.hpp"

#include <cmath>

namespace ctuner {

Decimator::Decimator(std::size_t factor)
    : factor_(factor), taps_(factor > 1 ? kTapsPerFactor * factor - 1 : 1, 1.0f), recent_(taps_.size()) {
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
    const std::size_t T = taps_.size();
    const float *h = taps_.data();
    for (std::size_t i = 0; i < n; ++i) {
        recent_.push(x[i]);
        if (++count_ < factor_) continue;
        count_ = 0;
        const float *r = recent_.latest(T);
        double acc[4] = {0, 0, 0, 0};
        std::size_t j = 0;
        for (; j + 4 <= T; j += 4)
            for (std::size_t k = 0; k < 4; ++k) acc[k] += double(h[j + k]) * double(r[j + k]);
        for (; j < T; ++j) acc[0] += double(h[j]) * double(r[j]);
        out.push(float((acc[0] + acc[1]) + (acc[2] + acc[3])));
    }
}

void Decimator::reset() {
    recent_.clear();
    count_ = 0;
}

} // namespace ctuner
