// RealFft.cpp — see RealFft.hpp.
#include "RealFft.hpp"

#include "FftWisdom.hpp"

#include <algorithm>
#include <mutex>
#include <new>
#include <stdexcept>

namespace ctuner {
namespace {
// The FFTW planner is not thread-safe; executing a plan is.
std::mutex &plannerMutex() {
    static std::mutex m;
    return m;
}
} // namespace

RealFFT::RealFFT(std::size_t n, bool withInverse) : size(n) {
    in = fftwf_alloc_real(n);
    out = fftwf_alloc_complex(n / 2 + 1);
    if (withInverse) acf = fftwf_alloc_real(n);
    if (!in || !out || (withInverse && !acf)) {
        fftwf_free(in);
        fftwf_free(out);
        fftwf_free(acf);
        throw std::bad_alloc();
    }
    std::lock_guard<std::mutex> lock(plannerMutex());
    importFftWisdom();  // the patient plans, where FFTW can use them (FftWisdom.hpp)
    forward = fftwf_plan_dft_r2c_1d(int(n), in, out, FFTW_ESTIMATE);
    if (withInverse) inverse = fftwf_plan_dft_c2r_1d(int(n), out, acf, FFTW_ESTIMATE);
    if (!forward || (withInverse && !inverse)) throw std::runtime_error("FFTW could not make a plan");
    std::fill(in, in + n, 0.0f);
}

RealFFT::~RealFFT() {
    {
        std::lock_guard<std::mutex> lock(plannerMutex());
        if (forward) fftwf_destroy_plan(forward);
        if (inverse) fftwf_destroy_plan(inverse);
    }
    fftwf_free(in);
    fftwf_free(out);
    fftwf_free(acf);
}

void RealFFT::padFrom(std::size_t n) {
    if (dirty > n) std::fill(in + n, in + dirty, 0.0f);
    dirty = n;
}

} // namespace ctuner
