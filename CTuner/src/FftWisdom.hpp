// FftWisdom.hpp — FFTW plans as fast as FFTW_PATIENT finds them, without planning at run time.
//
// FFTW_ESTIMATE plans in about a millisecond but guesses: on the engine's sizes its plans took 27–29 %
// longer than FFTW_PATIENT's (2048: 2.25 vs 1.60 µs, 4096: 4.72 vs 3.46 µs, 16384: 22.2 vs 16.2 µs per
// real→complex transform, this 2-core x86-64 VM, FFTW 3.3.10). FFTW_MEASURE/PATIENT at run time took
// 0.1–2 s per size and per engine, and chose differently from run to run, so the readings' last bits
// changed between runs. Wisdom is FFTW's record of the plans it chose: gathered once with FFTW_PATIENT
// (`make fft-wisdom`, CTuner/tools/make_fft_wisdom.cpp), kept as text in FftWisdomText.cpp and
// imported before the first plan, it lets FFTW_ESTIMATE planning take the patient plans at once — the
// same plans on every run, hence the same readings.
//
// Where the wisdom does not apply (another FFTW version, a CPU without a SIMD extension a recorded
// plan used), FFTW ignores it, or the parts of it it cannot use, and plans by estimate as before:
// slower, never wrong.
#pragma once

namespace ctuner {

/// The wisdom text (generated; FftWisdomText.cpp).
extern const char kFftWisdom[];

/// Imports kFftWisdom into FFTW once per process; later calls return the first call's answer (whether
/// FFTW accepted the text). Call with FFTW's planner lock held (RealFft.cpp), before planning.
bool importFftWisdom();

} // namespace ctuner
