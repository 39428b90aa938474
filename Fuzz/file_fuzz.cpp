// file_fuzz.cpp — libFuzzer target over audio-file reading: libsndfile opens the fuzzer's bytes as a
// file (sf_open_virtual over memory), then the file input's steps run on it as
// Sources/TunerAudio/AudioFileSource.swift does them — refuse 0 channels, a rate outside 8…192 kHz and
// 0 frames; read blocks of at most 4096 frames with sf_readf_float; mix the channels to mono (their
// mean) or pick one; feed the engine at the file's rate — and every result is checked by ResultChecker.
//
// libsndfile itself is not instrumented for coverage (it is the Debian build), but AddressSanitizer
// still checks every buffer this code hands it and every allocation it makes through malloc.
//
// Build and run: `make fuzz` (see Fuzz/README.md).
#include "ResultChecks.hpp"
#include "ctuner.h"

#include <sndfile.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

/// The fuzzer's bytes as a read-only file for SF_VIRTUAL_IO.
struct MemoryFile {
    const std::uint8_t *data;
    sf_count_t size;
    sf_count_t position = 0;
};

sf_count_t memoryLength(void *user) { return static_cast<MemoryFile *>(user)->size; }

sf_count_t memorySeek(sf_count_t offset, int whence, void *user) {
    auto *f = static_cast<MemoryFile *>(user);
    sf_count_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? f->position : f->size;
    sf_count_t target = base + offset;
    if (target < 0) return -1;
    f->position = target;  // seeking past the end is allowed; reads there return 0
    return f->position;
}

sf_count_t memoryRead(void *out, sf_count_t count, void *user) {
    auto *f = static_cast<MemoryFile *>(user);
    if (count <= 0 || f->position >= f->size) return 0;
    sf_count_t n = std::min(count, f->size - f->position);
    std::memcpy(out, f->data + f->position, size_t(n));
    f->position += n;
    return n;
}

sf_count_t memoryWrite(const void *, sf_count_t, void *) { return 0; }
sf_count_t memoryTell(void *user) { return static_cast<MemoryFile *>(user)->position; }

void onResult(ct_result r, void *context) { static_cast<fuzz::ResultChecker *>(context)->check(r); }

constexpr sf_count_t kBlockFrames = 4096;
/// Frames one input may push through the engine (about 1.5 s at 44.1 kHz): keeps executions fast.
constexpr sf_count_t kFrameBudget = 1 << 16;

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    MemoryFile file{data, sf_count_t(size)};
    SF_VIRTUAL_IO io{memoryLength, memorySeek, memoryRead, memoryWrite, memoryTell};
    SF_INFO info;
    std::memset(&info, 0, sizeof info);
    SNDFILE *sound = sf_open_virtual(&io, SFM_READ, &info, &file);
    if (!sound) {
        if (sf_strerror(nullptr)[0] == 0) {
            std::fprintf(stderr, "sf_open_virtual failed without a message\n");
            std::abort();
        }
        return 0;
    }
    // The checks AudioFileSource makes before it reads a frame.
    if (info.channels < 1 || info.samplerate < 8000 || info.samplerate > 192000 || info.frames <= 0) {
        sf_close(sound);
        return 0;
    }
    const int channels = info.channels;
    // 0 mixes all channels; otherwise the 1-based channel read alone (chosen from the input's length).
    const int pick = int(size % std::size_t(channels + 1));

    fuzz::ResultChecker checker;
    ct_config config;
    ct_config_default(&config, double(info.samplerate));
    char error[128] = {0};
    ct_engine *engine = ct_engine_create(&config, onResult, &checker, error, sizeof error);
    if (!engine) {
        std::fprintf(stderr, "engine refused a %d Hz file: %s\n", info.samplerate, error);
        std::abort();
    }
    checker.sampleRate = config.sample_rate;
    checker.hop = ct_engine_hop_size(engine);

    std::vector<float> interleaved(std::size_t(kBlockFrames) * std::size_t(channels));
    std::vector<float> mono(kBlockFrames);
    sf_count_t total = 0;
    while (total < kFrameBudget) {
        sf_count_t got = sf_readf_float(sound, interleaved.data(), kBlockFrames);
        if (got < 0 || got > kBlockFrames) {
            std::fprintf(stderr, "sf_readf_float returned %lld for %lld frames\n", (long long)got,
                         (long long)kBlockFrames);
            std::abort();
        }
        if (got == 0) break;
        for (sf_count_t i = 0; i < got; ++i) {
            const float *row = &interleaved[std::size_t(i) * std::size_t(channels)];
            if (pick > 0) {
                mono[std::size_t(i)] = row[pick - 1];
            } else {
                float sum = 0;
                for (int c = 0; c < channels; ++c) sum += row[c];
                mono[std::size_t(i)] = sum * (1.0f / float(channels));
            }
        }
        ct_engine_process(engine, mono.data(), std::size_t(got));
        total += got;
    }
    ct_engine_destroy(engine);
    sf_close(sound);
    return 0;
}
