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

/// Where a break was found: the input sample count at which the piece that broke begins, and how
/// many times what the sound before it measured that piece measured.
struct Break {
    bool found = false;
    unsigned long long at = 0;
    double overBefore = 0;
};

/// A break is reported as the engine's onset (a new note starts: ct_result.onset) only when its piece
/// measures at least 20 times what the 20 ms before it measured; a weaker break still holds back the
/// readings (heardSinceBreak) but starts no note. Guards against a note whose own waveform wobbles
/// being cut into several: the FluidR3 pizzicato C2 of Benchmarks/settle_report.py breaks at 6.6–7.3×
/// three times as it decays (announced twice), a bowed cello C2 of the public real recordings at 8.4×
/// as its bow stops; a string plucked again while it rings breaks at 181–327× (FluidR3 nylon E2, steel
/// A2), the 1 s Stratocaster's tape-echo repeat at 57× (public real recordings).
constexpr double kAttackOverBefore = 20.0;

/// Whether a break is the start of a new note (see kAttackOverBefore).
inline bool isAttack(const Break &b) { return b.found && b.overBefore >= kAttackOverBefore; }

/// Whether the newest hop (`hopDecimated` samples of the decimated input `x`, at `fsDecimated`) holds
/// new sound over a note at `frequency`. `consumed` is the input sample count at the newest sample,
/// `decimation` the input samples per decimated one.
Break periodicityBreak(const Ring &x, double fsDecimated, std::size_t hopDecimated, std::size_t decimation,
                       unsigned long long consumed, double frequency);

/// Whether the newest `count` decimated samples repeat at the period of `frequency`, and not at a
/// half or a third of it.
bool heardSinceBreak(const Ring &x, double fsDecimated, double frequency, std::size_t count);

} // namespace ctuner
