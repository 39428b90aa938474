// OnsetGuard.hpp — attacks over a ringing note, heard in the decimated input.
//
// A pluck breaks the periodicity of the string read before it at once, while the analysis windows
// still hold mostly that string for tens of milliseconds (periodicityBreak); until the long window is
// past the break, a reading is taken only if the sound since the break repeats at its period and not
// at half or a third of it (heardSinceBreak). Both measure with McLeod and Wyvill's square difference
// (Nsdf.hpp) on a fractional lag.
#pragma once

#include <cstddef>

#include "Ring.hpp"

namespace ctuner {

/// Where a break was found: the input sample count at which the piece that broke begins.
struct Break {
    bool found = false;
    unsigned long long at = 0;
};

/// Whether the newest hop (`hopDecimated` samples of the decimated input `x`, at `fsDecimated`) holds
/// new sound over a note at `frequency`. `consumed` is the input sample count at the newest sample,
/// `decimation` the input samples per decimated one.
Break periodicityBreak(const Ring &x, double fsDecimated, std::size_t hopDecimated, std::size_t decimation,
                       unsigned long long consumed, double frequency);

/// Whether the newest `count` decimated samples repeat at the period of `frequency`, and not at a
/// half or a third of it.
bool heardSinceBreak(const Ring &x, double fsDecimated, double frequency, std::size_t count);

} // namespace ctuner
