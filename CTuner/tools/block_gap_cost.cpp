// block_gap_cost.cpp — what the engine costs per capture block when the blocks come with gaps, as live
// input does, against back to back, as a file does. Run by `make block-gap-cost`; not part of the
// engine or its build. Evidence for BENCHMARKS.md, "Live: the engine's cost per block after a gap".
//
// Live through a sound server the analysis thread gets a 20 ms period (960 samples at 48 kHz, two
// hops) and sleeps until the next; `tuner --file` feeds the engine without pause. The tool feeds the
// same input through the C API (ct_engine_process) in 960-sample blocks and, between blocks, does one
// of: nothing; sleeps 1, 5 or 20 ms; spins a scalar loop (no memory traffic) for 20 ms; spins an AVX
// FMA loop for 20 ms (x86-64 only: do idle vector units cost the wake?); writes a 64 MiB buffer
// (evicting every cache of the thread's own doing). It times only the engine:
// thread CPU time summed over all blocks (ms per audio second) and each block's wall time (median).
//
// Input: 15 s at 48 kHz of plucked strings (E2, A2, D3, G3, B3, E4, 2.5 s each), partials k = 1…12 at
// 1/k, decaying at 1.5 s⁻¹ — a guitar being tuned. Each gap mode takes 15 s of wall time per round.
#include "ctuner.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace {
constexpr double kRate = 48000;
constexpr std::size_t kBlock = 960;           // one 20 ms capture period at 48 kHz
constexpr long kPeriod = 20000;               // µs: the period the analysis thread waits for, live
constexpr std::size_t kEvictBytes = 64u << 20;  // twice the L3 of the machine measured (32 MiB)

double threadSeconds() {
    timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

double wallMicroseconds() {
    timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return 1e6 * double(t.tv_sec) + 1e-3 * double(t.tv_nsec);
}

std::vector<float> strum() {
    const double notes[] = {82.41, 110.0, 146.83, 196.0, 246.94, 329.63};
    const std::size_t each = std::size_t(2.5 * kRate);
    std::vector<float> x;
    for (double f : notes)
        for (std::size_t n = 0; n < each; ++n) {
            const double t = double(n) / kRate;
            double v = 0;
            for (int k = 1; k <= 12 && k * f < 0.45 * kRate; ++k) v += std::sin(2 * M_PI * k * f * t) / k;
            x.push_back(float(0.25 * std::exp(-1.5 * t) * v / 3.0));
        }
    return x;
}

volatile double gSink;  // keeps the spin loops from being optimised away

void spinScalar(double microseconds) {
    const double until = wallMicroseconds() + microseconds;
    double acc = 0;
    while (wallMicroseconds() < until)
        for (int i = 0; i < 1000; ++i) acc = acc * 0.999999 + 1.0;
    gSink = acc;
}

#if defined(__x86_64__)
__attribute__((target("avx2,fma"))) void spinVector(double microseconds) {
    const double until = wallMicroseconds() + microseconds;
    __m256 a = _mm256_set1_ps(0.999999f), c = _mm256_set1_ps(1.0f);
    while (wallMicroseconds() < until)
        for (int i = 0; i < 1000; ++i) c = _mm256_fmadd_ps(a, c, a);
    float out[8];
    _mm256_storeu_ps(out, c);
    gSink = out[0];
}
#endif

struct Figures {
    double msPerAudioSecond;
    double medianBlockMicroseconds;
};

/// What happens between two blocks: kind "none", "sleep", "scalar-spin", "vector-spin" or "evict", for
/// `microseconds` (sleep and spins).
struct Gap {
    std::string kind;
    long microseconds;
    std::string name() const {
        return microseconds > 0 ? kind + " " + std::to_string(microseconds / 1000) + " ms" : kind;
    }
};

Figures run(const std::vector<float> &x, const Gap &gap, std::vector<char> &evict) {
    ct_config c;
    ct_config_default(&c, kRate);
    char error[256];
    std::size_t pitched = 0;
    ct_engine *engine = ct_engine_create(
        &c, [](ct_result r, void *context) { *static_cast<std::size_t *>(context) += std::size_t(r.has_pitch); },
        &pitched, error, sizeof error);
    if (!engine) {
        std::fprintf(stderr, "block_gap_cost: %s\n", error);
        std::exit(1);
    }
    double cpu = 0;
    std::vector<double> walls;
    for (std::size_t at = 0; at + kBlock <= x.size(); at += kBlock) {
        const double c0 = threadSeconds(), w0 = wallMicroseconds();
        ct_engine_process(engine, x.data() + at, kBlock);
        walls.push_back(wallMicroseconds() - w0);
        cpu += threadSeconds() - c0;
        if (gap.kind == "sleep") {
            timespec ts{0, gap.microseconds * 1000};
            nanosleep(&ts, nullptr);
        } else if (gap.kind == "scalar-spin") {
            spinScalar(double(gap.microseconds));
#if defined(__x86_64__)
        } else if (gap.kind == "vector-spin") {
            spinVector(double(gap.microseconds));
#endif
        } else if (gap.kind == "evict") {
            for (std::size_t i = 0; i < evict.size(); i += 64) evict[i] = char(evict[i] + 1);
        }
    }
    ct_engine_destroy(engine);
    if (pitched * 2 < x.size() / std::size_t(c.hop_seconds * kRate)) {  // the input is pitched throughout
        std::fprintf(stderr, "block_gap_cost: only %zu pitched results: the engine did not read the input\n", pitched);
        std::exit(1);
    }
    std::nth_element(walls.begin(), walls.begin() + long(walls.size() / 2), walls.end());
    return {1000.0 * cpu / (double(x.size()) / kRate), walls[walls.size() / 2]};
}
} // namespace

int main(int argc, char **argv) {
    const int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 2;
    const std::vector<float> x = strum();
    std::vector<char> evict(kEvictBytes, 0);
    std::vector<Gap> gaps = {{"none", 0},        {"sleep", 1000},       {"sleep", 5000},
                             {"sleep", kPeriod}, {"scalar-spin", kPeriod}, {"evict", 0}};
#if defined(__x86_64__)
    gaps.insert(gaps.begin() + 5, Gap{"vector-spin", kPeriod});
#endif
    std::printf("| gap between 960-sample blocks | engine CPU, ms per audio second (rounds) | median block wall time, µs |\n");
    std::printf("|---|---|---|\n");
    std::vector<std::vector<Figures>> figures(gaps.size());
    for (int r = 0; r < rounds; ++r)  // the gaps take turns, so a change in the machine's load hits them all
        for (std::size_t g = 0; g < gaps.size(); ++g) figures[g].push_back(run(x, gaps[g], evict));
    for (std::size_t g = 0; g < gaps.size(); ++g) {
        std::string cpu, wall;
        for (const Figures &f : figures[g]) {
            char s[32];
            std::snprintf(s, sizeof s, "%s%.2f", cpu.empty() ? "" : " / ", f.msPerAudioSecond);
            cpu += s;
            std::snprintf(s, sizeof s, "%s%.0f", wall.empty() ? "" : " / ", f.medianBlockMicroseconds);
            wall += s;
        }
        std::printf("| %s | %s | %s |\n", gaps[g].name().c_str(), cpu.c_str(), wall.c_str());
    }
    return 0;
}
