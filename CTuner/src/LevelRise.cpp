// LevelRise.cpp — see LevelRise.hpp.
#include "LevelRise.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ctuner {
namespace {
/// Times are compared with this slack, so results exactly kRiseSeconds apart count as that far apart.
constexpr double kTimeSlack = 1e-9;
} // namespace

LevelRise::LevelRise(double hopSeconds)
    : entries_(std::size_t(std::ceil(kLookbackSeconds / std::max(hopSeconds, 1e-4))) + 2) {}

void LevelRise::reset() {
    head_ = count_ = 0;
    started_ = rising_ = false;
}

bool LevelRise::process(double time, double level, bool heardElsewhere) {
    if (!started_) {
        started_ = true;
        firstAt_ = time;
    }
    // Keep the results of the last kLookbackSeconds (this one included); when the ring is full the
    // oldest, already outside the lookback at a steady hop, makes room.
    if (count_ == entries_.size()) {
        head_ = (head_ + 1) % entries_.size();
        --count_;
    }
    entries_[(head_ + count_) % entries_.size()] = {time, level};
    ++count_;
    while (count_ > 0 && entries_[head_].time < time - kLookbackSeconds - kTimeSlack) {
        head_ = (head_ + 1) % entries_.size();
        --count_;
    }
    if (heardElsewhere) {
        rising_ = true;
        peak_ = level;
        peakAt_ = time;
        return true;
    }
    if (rising_) {
        if (level > peak_) {
            peak_ = level;
            peakAt_ = time;
        } else if (time - peakAt_ >= kRiseSeconds - kTimeSlack) {
            rising_ = false;
        }
        if (rising_) return false;
    }
    double loudest = -std::numeric_limits<double>::infinity();
    double quietest = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < count_; ++i) {
        const Entry &e = entries_[(head_ + i) % entries_.size()];
        if (e.time <= time - kRiseSeconds + kTimeSlack) loudest = std::max(loudest, e.level);
        if (e.time >= time - kJumpSeconds - kTimeSlack && e.time < time) quietest = std::min(quietest, e.level);
    }
    // The lookback reaching back before the input: the silence before it (kInputPastDb).
    if (time - kLookbackSeconds < firstAt_ - kTimeSlack) loudest = std::max(loudest, kInputPastDb);
    if (!std::isfinite(loudest)) return false;
    const bool risen = level >= loudest + kRiseDb;
    const bool jumped = level >= quietest + kJumpDb && level >= loudest + kOverPreviousDb;
    if (!risen && !jumped) return false;
    rising_ = true;
    peak_ = level;
    peakAt_ = time;
    return true;
}

} // namespace ctuner
