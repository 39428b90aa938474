// PartialSearch.hpp — the frequency of a note's first partial, refined from the period's rough one:
// its partials measured by the phase vocoder (SpectralPeaks), fitted to the stiff-string series
// (PartialFit), a lone sinusoid measured again by maximum likelihood (LoneSinusoid).
#pragma once

#include <cstddef>
#include <vector>

#include "PartialFit.hpp"
#include "Ring.hpp"
#include "SpectralPeaks.hpp"

namespace ctuner {

/// What the partials say about a rough frequency.
struct Refinement {
    enum class Outcome {
        Measured,    // `frequency` is the first partial's
        NoPartial,   // no partial stood out: the rough frequency is all there is
        OctaveLow,   // only even partials: the sound repeats at twice the rough frequency
    };
    Outcome outcome = Outcome::NoPartial;
    double frequency = 0;
};

class PartialSearch {
public:
    /// For frames of frameMin…frameMax samples (the partial lists are reserved here).
    PartialSearch(std::size_t frameMin, std::size_t frameMax);

    /// Refines `coarse` (Hz) on the newest input in `history`. Frames are kFramePeriods periods of
    /// `coarse` long; their offset D grows from L/2 at a note's onset to L once the note has held
    /// (`heldFor` samples) that long: more precision for a held note, quick lock on a new one.
    Refinement refine(SpectralFrames &spectra, const Ring &history, double coarse, std::size_t heldFor);

    /// The partials the last refine() fitted (for tests).
    const std::vector<Partial> &partials() const { return partials_; }

private:
    std::size_t frameMin_, frameMax_;
    std::vector<Partial> partials_;
    std::vector<Partial> rescan_;  // the next pass's partials
};

} // namespace ctuner
