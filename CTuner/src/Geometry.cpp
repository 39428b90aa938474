// Geometry.cpp — see Geometry.hpp.
#include "Geometry.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ctuner {

void Geometry::validate(const ct_config &c) {
    if (!(c.sample_rate >= 8000 && c.sample_rate <= 192000))
        throw std::invalid_argument("sample rate must be between 8000 and 192000 Hz");
    if (!(c.min_frequency >= 20 && c.max_frequency > c.min_frequency * 2))
        throw std::invalid_argument("frequency range must start at 20 Hz or above and span an octave");
    if (!(c.hop_seconds >= 0.001 && c.hop_seconds <= 0.1))
        throw std::invalid_argument("hop must be between 1 and 100 ms");
    if (!std::isfinite(c.gate_db)) throw std::invalid_argument("gate must be a finite level in dBFS");
}

Geometry::Geometry(const ct_config &c)
    : fs(c.sample_rate), minFrequency(c.min_frequency), maxFrequency(c.max_frequency), gateDb(c.gate_db),
      hop(std::size_t(std::lround(c.sample_rate * c.hop_seconds))),
      decimation(std::max<std::size_t>(1, std::size_t(c.sample_rate / kDecimatedRateFloor))),
      fsDecimated(c.sample_rate / double(decimation)),
      nsdfWindow(std::size_t(std::ceil(kLongWindowPeriods * fsDecimated / c.min_frequency))),
      minLag(std::max<std::size_t>(2, std::size_t(std::floor(fsDecimated / c.max_frequency)))),
      maxLag(std::size_t(std::ceil(fsDecimated / c.min_frequency)) + 2),
      shortWindow(std::min(nsdfWindow, std::size_t(std::ceil(kShortWindowSeconds * fsDecimated)))),
      shortMaxLag(std::min(maxLag, shortWindow / 3)),
      frameMin(std::size_t(std::ceil(kFrameFloorSeconds * c.sample_rate))),
      frameMax(std::max(std::size_t(std::ceil(kFramePeriods * c.sample_rate / c.min_frequency)), frameMin)),
      levelWindow(std::size_t(std::ceil(kLevelSeconds * c.sample_rate))),
      historyLength(2 * std::size_t(std::ceil(kFramePeriods * c.sample_rate / c.min_frequency)) + 16 + levelWindow),
      decimatedLength(nsdfWindow + 4) {}

} // namespace ctuner
