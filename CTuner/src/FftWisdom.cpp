// FftWisdom.cpp — see FftWisdom.hpp.
#include "FftWisdom.hpp"

#include <fftw3.h>

namespace ctuner {

bool importFftWisdom() {
    static const bool imported = fftwf_import_wisdom_from_string(kFftWisdom) != 0;
    return imported;
}

} // namespace ctuner
