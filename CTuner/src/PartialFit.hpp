// PartialFit.hpp — the stiff-string model, written once, and its fit to measured partials.
//
// H. Fletcher, "Normal vibration frequencies of a stiff piano string", JASA 36(1), 1964: a stiff
// string's partials lie at f_k = k·f0·sqrt(1 + B·k²). In terms of the first partial f1 (what the
// string's fundamental sounds at), f_k = k·f1·sqrt((1 + B·k²)/(1 + B)).
#pragma once

#include <cstddef>

namespace ctuner {

/// The largest inharmonicity the fit reports: a piano's lowest strings reach ~1e-3 (Fletcher 1964);
/// guitar and bass strings stay far below it. A fit beyond it is noise in the upper partials.
constexpr double kMaxInharmonicity = 2e-3;

/// A measured partial: its number k ≥ 1, frequency (Hz) and magnitude (linear).
struct Partial {
    int k;
    double frequency;
    double magnitude;
};

/// The first partial's frequency and the inharmonicity coefficient.
struct StiffString {
    double f1;
    double B;
};

/// How far a stiff string's partial k lies above k·f1: sqrt((1 + B·k²)/(1 + B)).
double stiffness(double k, double B);
/// Where the series puts partial k.
double seriesAt(int k, const StiffString &s);

/// Weighted least-squares fit of f_k = k·f1·sqrt((1+B·k²)/(1+B)) to `count` partials: B from the
/// straight line Y_k = (f_k/k)² = f0²·(1 + B·k²) against k² (exact; weights k²·|X_k|²/Y_k, the inverse
/// variance of Y_k for a peak of magnitude |X_k|), clamped to [0, kMaxInharmonicity]; then f1 for that
/// B, with the exact model. With fewer than three partials B is 0, and f1 is the first partial's own frequency
/// when it is partial 1. `start` is returned when the partials weigh nothing.
StiffString fitPartials(const Partial *partials, std::size_t count, StiffString start);

/// The first partial's frequency for a given B: the weighted least-squares f1 of y_k = f1·stiffness(k, B)
/// (the second step of fitPartials, for any number of partials); `fallback` when they weigh nothing.
double firstPartialFor(const Partial *partials, std::size_t count, double B, double fallback);

} // namespace ctuner
