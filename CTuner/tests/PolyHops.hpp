// PolyHops.hpp — the polyphonic analyser's hops as the tests read them: run a PolyAnalyser over a
// signal (at a gate, −60 dBFS unless given), and one string's median and worst reading and the share of
// hops it was heard on over a part of it.
#pragma once

#include "Signals.hpp"

#include "../src/PolyAnalyser.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace polyhops {
constexpr double kFs = 44100;
inline const double kNaN = std::nan("");

struct Hop {
    double time;
    std::vector<ct_poly_string> strings;
};

inline std::vector<Hop> analyse(const std::vector<double> &targets, const std::vector<float> &x, double gateDb = -60) {
    ct_config c;
    c.sample_rate = kFs;
    c.min_frequency = 29;
    c.max_frequency = 4200;
    c.gate_db = gateDb;
    c.hop_seconds = 0.01;
    ctuner::PolyAnalyser a(c, targets.data(), targets.size());
    std::vector<Hop> hops;
    a.onHop = [&](double t, const ct_poly_string *s, std::size_t n) { hops.push_back({t, {s, s + n}}); };
    a.process(x.data(), x.size());
    return hops;
}

/// The median reading of string i over hops after `from` seconds, in cents from `truth` Hz; NaN when it
/// was heard on fewer than half of them. `heard` gets the share of those hops it was heard on.
inline double medianCents(const std::vector<Hop> &hops, std::size_t i, double truth, double from, double *heard = nullptr) {
    std::vector<double> c;
    std::size_t total = 0;
    for (const Hop &h : hops) {
        if (h.time < from) continue;
        ++total;
        if (h.strings[i].heard) c.push_back(signals::cents(h.strings[i].frequency, truth));
    }
    if (heard) *heard = total ? double(c.size()) / double(total) : 0;
    if (c.size() * 2 < total || c.empty()) return kNaN;
    std::nth_element(c.begin(), c.begin() + c.size() / 2, c.end());
    return c[c.size() / 2];
}

/// The share of the hops from `from` to `to` seconds on which string i was heard.
inline double heardShare(const std::vector<Hop> &hops, std::size_t i, double from, double to = INFINITY) {
    std::size_t total = 0, heard = 0;
    for (const Hop &h : hops) {
        if (h.time < from || h.time > to) continue;
        ++total;
        heard += h.strings[i].heard != 0;
    }
    return total ? double(heard) / double(total) : 0;
}

inline double maxAbsCents(const std::vector<Hop> &hops, std::size_t i, double truth, double from) {
    double worst = 0;
    for (const Hop &h : hops)
        if (h.time >= from && h.strings[i].heard) worst = std::max(worst, std::abs(signals::cents(h.strings[i].frequency, truth)));
    return worst;
}
} // namespace polyhops
