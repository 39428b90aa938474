// PitchEngine.hpp — the tuner's pitch engine (C++17, FFTW single precision). Private header: Swift
// sees only the C API in include/ctuner.h. See PitchEngine.cpp for the units and CTuner/README.md.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "../include/ctuner.h"

namespace ctuner {

using TunerResult = ct_result;

class PitchEngine {
public:
    /// Makes every buffer and FFTW plan. Throws std::invalid_argument for an out-of-range config.
    explicit PitchEngine(const ct_config &config);
    ~PitchEngine();
    PitchEngine(const PitchEngine &) = delete;
    PitchEngine &operator=(const PitchEngine &) = delete;

    /// Fired synchronously from process(), on the caller's thread, once per completed hop.
    std::function<void(TunerResult)> onResultReady;

    /// Feeds `count` mono samples. Allocates nothing, locks nothing.
    void process(const float *samples, std::size_t count);
    void reset();

    std::size_t hopSize() const;
    std::size_t windowSize() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace ctuner
