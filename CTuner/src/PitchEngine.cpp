// TEMPORARY placeholder while the real engine is written: emits level-only results, never a pitch.
#include "PitchEngine.hpp"
#include <cmath>
#include <stdexcept>
namespace ctuner {
struct PitchEngine::Impl { double fs; double a4; std::size_t hop; std::size_t filled = 0; std::size_t total = 0; double sumsq = 0; };
PitchEngine::PitchEngine(const ct_config &c) : impl_(new Impl{c.sample_rate, c.a4, (std::size_t)std::lround(c.sample_rate * c.hop_seconds)}) {
    if (!(c.sample_rate >= 8000 && c.sample_rate <= 192000)) throw std::invalid_argument("sample rate out of range");
}
PitchEngine::~PitchEngine() = default;
void PitchEngine::process(const float *s, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
        impl_->sumsq += double(s[i]) * s[i]; impl_->total++;
        if (++impl_->filled == impl_->hop) {
            ct_result r{}; r.time = impl_->total / impl_->fs; r.note_name = ""; r.midi_note = -1;
            r.level_db = 10 * std::log10(impl_->sumsq / impl_->hop + 1e-12);
            impl_->filled = 0; impl_->sumsq = 0;
            if (onResultReady) onResultReady(r);
        }
    }
}
void PitchEngine::setA4(double a4) { impl_->a4 = a4; }
void PitchEngine::reset() { impl_->filled = 0; impl_->total = 0; }
std::size_t PitchEngine::hopSize() const { return impl_->hop; }
std::size_t PitchEngine::windowSize() const { return impl_->hop; }
}
