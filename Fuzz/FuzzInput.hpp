// FuzzInput.hpp — hands out values from a fuzzer's input bytes, front to back. Once the bytes run out
// every value is 0, so a target never reads past the input and every input is a valid program.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace fuzz {

class FuzzInput {
public:
    FuzzInput(const std::uint8_t *data, std::size_t size) : data_(data), size_(size) {}

    bool empty() const { return offset_ >= size_; }
    std::size_t remaining() const { return empty() ? 0 : size_ - offset_; }

    std::uint8_t byte() { return empty() ? 0 : data_[offset_++]; }
    std::uint16_t u16() { return std::uint16_t(byte() | (std::uint16_t(byte()) << 8)); }
    std::uint32_t u32() { return std::uint32_t(u16()) | (std::uint32_t(u16()) << 16); }

    /// Raw IEEE bits: any float, NaN and ±Inf included.
    float f32() {
        std::uint32_t bits = u32();
        float value;
        std::memcpy(&value, &bits, sizeof value);
        return value;
    }
    double f64() {
        std::uint64_t bits = std::uint64_t(u32()) | (std::uint64_t(u32()) << 32);
        double value;
        std::memcpy(&value, &bits, sizeof value);
        return value;
    }
    /// A value in [lo, hi], spread over 65536 steps.
    double inRange(double lo, double hi) { return lo + (hi - lo) * (double(u16()) / 65535.0); }

private:
    const std::uint8_t *data_;
    std::size_t size_;
    std::size_t offset_ = 0;
};

/// A configuration field: its default, a value in [lo, hi], or raw bits (NaN and ±Inf included), by the
/// next byte. The targets' seed writer (make-seeds.py) encodes fields the same way.
inline double field(FuzzInput &in, double fallback, double lo, double hi) {
    switch (in.byte() % 4) {
    case 0: return fallback;
    case 1:
    case 2: return in.inRange(lo, hi);
    default: return in.f64();
    }
}

} // namespace fuzz
