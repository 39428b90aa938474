// Decimator.hpp — the input at fs, decimated by a whole factor for the period decision (NSDF).
#pragma once

#include <cstddef>

#include "Ring.hpp"

namespace ctuner {

/// Averages each run of `factor` input samples into one output sample (a boxcar filter, then
/// keeping one sample in `factor`; factor 2 at 44.1/48 kHz: the 2-tap moving average). Its response
/// falls to zero at fs/factor, so the NSDF's octave decisions are not made on aliases of the
/// strongest partials near the decimated Nyquist frequency.
class Decimator {
public:
    explicit Decimator(std::size_t factor) : factor_(factor) {}
    std::size_t factor() const { return factor_; }

    /// Feeds n input samples; each completed output sample is pushed into `out`.
    void push(const float *x, std::size_t n, Ring &out) {
        for (std::size_t i = 0; i < n; ++i) {
            sum_ += x[i];
            if (++count_ == factor_) {
                out.push(float(sum_ / double(factor_)));
                sum_ = 0;
                count_ = 0;
            }
        }
    }
    void reset() {
        sum_ = 0;
        count_ = 0;
    }

private:
    std::size_t factor_;
    double sum_ = 0;
    std::size_t count_ = 0;
};

} // namespace ctuner
