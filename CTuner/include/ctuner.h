/*
 * ctuner.h — the C face of the tuner's C++ pitch engine (CTuner/src/PitchEngine.hpp).
 *
 * Only C lives in this folder: every header here enters the Clang module that Swift imports, and
 * Swift imports it without C++ interop. The C++ engine fires a std::function onResultReady; this
 * API wraps it as a plain function pointer plus a context pointer.
 *
 * Lifecycle (aubio style): ct_engine_create → ct_engine_process … → ct_engine_destroy.
 *  - create allocates every buffer and makes every FFTW plan; it is the only call that allocates.
 *  - process is pure arithmetic on the caller's thread; it calls the callback synchronously, on that
 *    same thread, once per analysis hop completed inside the block (zero or more times per call).
 *  - one engine is used from one thread at a time; different engines may run on different threads.
 *
 * The engine reports what it measures — time, frequency, clarity, level, onset — and names no notes:
 * note names, the reference pitch (A4) and cents are the Swift side's (TunerMusic).
 *
 * Buffer lengths (fs = sample rate, f = the note's frequency):
 *  - period decision: 3.5 periods of min_frequency (132 ms at the default 26.5 Hz), low-pass filtered
 *    (a 31-tap FIR at 44.1/48 kHz) and decimated to 20–24 kHz;
 *  - frequency: frames of L = min(max(6·fs/f, 0.032·fs), 6·fs/min_frequency) samples. A held note is
 *    measured over 2L samples (its effective window N for a Cramér–Rao comparison); a new note
 *    over 1.5L. Results every hop_seconds (default 10 ms).
 */
#ifndef CTUNER_H
#define CTUNER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** One analysis result. */
typedef struct ct_result {
    /** Seconds of input consumed when the result was made: the end of the newest sample it used. */
    double time;
    /** 1 when a pitch was found; 0 when the gate is closed or the input has no clear pitch. */
    int has_pitch;
    /** Fundamental frequency in Hz (the first partial); 0 when has_pitch is 0. */
    double frequency;
    /** How periodic the input is, 0…1 (normalised autocorrelation at the chosen period). */
    double confidence;
    /** RMS level of the analysis window in dBFS (−120 floor for digital silence). */
    double level_db;
    /** 1 when an attack was heard in this hop, the start of a new note: new sound clearly breaking the
     *  periodicity of the note read last (a pluck, also of the same string at the same level;
     *  OnsetGuard), or the level rising well above the recent past (a note after a rest, a re-attack,
     *  a new bow stroke; LevelRise). One attack is one onset; a dropout of pitch inside a note is none.
     *  The input starts after silence: a note sounding from its start has its one onset at the first
     *  result that hears it. 0 otherwise. */
    int onset;
} ct_result;

typedef void (*ct_result_callback)(ct_result result, void *context);

typedef struct ct_config {
    double sample_rate;   /**< Hz, 8000…192000. */
    double min_frequency; /**< Lowest fundamental searched, Hz (default 26.5, below A0 = 27.5). */
    double max_frequency; /**< Highest fundamental searched, Hz (default 4200, above C8). */
    double gate_db;       /**< Noise gate: windows quieter than this RMS (dBFS) give no pitch (default −60). */
    double hop_seconds;   /**< Time between results (default 0.01 s → 100 results/s). */
} ct_config;

/** Fills `config` with the defaults above for `sample_rate`. */
void ct_config_default(ct_config *config, double sample_rate);

typedef struct ct_engine ct_engine;

/**
 * Makes an engine. Returns NULL (and writes a reason into `error`, if given) when the configuration is
 * out of range. The callback and context are kept; the context is not owned.
 */
ct_engine *ct_engine_create(const ct_config *config, ct_result_callback callback, void *context,
                            char *error, size_t error_capacity);

/** Frees the engine, its buffers and its plans. NULL is ignored. */
void ct_engine_destroy(ct_engine *engine);

/** Feeds `count` mono samples (any count, including 0). Non-finite samples are treated as 0. */
void ct_engine_process(ct_engine *engine, const float *samples, size_t count);

/** Forgets all input (time restarts at 0). */
void ct_engine_reset(ct_engine *engine);

/** Samples between results. */
size_t ct_engine_hop_size(const ct_engine *engine);

/** Samples in the longest analysis window (the input a result may look back on). */
size_t ct_engine_window_size(const ct_engine *engine);

/* ---- Polyphonic strums: every string of a tuning read at once (CTuner/src/PolyAnalyser.hpp) ----
 *
 * Lifecycle as for the engine: ct_poly_create (allocates everything) → ct_poly_process … (allocates
 * nothing; calls the callback once per hop, on the caller's thread) → ct_poly_destroy. Each string is
 * searched within ±130 cents of its target (a semitone off is still read; octaves are not looked for).
 * Frames of 0.25 s, so a strum reads cleanly about 0.4 s after it was struck. While a new strum still
 * fills the frames, a string starts being reported only through partials that have stopped growing
 * (a muted string would otherwise take the others' partials before their series are found).
 */

/** The most strings one analyser reads at once (a 12-string guitar); ct_poly_create refuses more.
 *  A result never holds more, so a caller may keep a result's strings in storage of this size. */
#define CT_POLY_MAX_STRINGS 12

/** One string's reading in a hop. */
typedef struct ct_poly_string {
    /** 1 when the string is sounding: above the gate, with partials of its own (not only partials that
     *  another string's series explains). 0 otherwise; the other fields are then 0 / −120. */
    int heard;
    /** The string's first-partial frequency, Hz (the stiff-string fit of its own partials). */
    double frequency;
    /** The fitted inharmonicity coefficient B (f_k = k·f0·sqrt(1 + B·k²)). */
    double inharmonicity;
    /** RMS level of the string's own partials, dBFS. */
    double level_db;
    /** The share (0…1) of the energy found on the string's series that is its own, not another string's. */
    double clarity;
} ct_poly_string;

/** One hop: its time (seconds of input consumed) and one reading per string, in target order. The
 *  array is the analyser's and is valid only during the callback. */
typedef struct ct_poly_result {
    double time;
    size_t count;
    const ct_poly_string *strings;
} ct_poly_result;

typedef void (*ct_poly_callback)(const ct_poly_result *result, void *context);

typedef struct ct_poly ct_poly;

/**
 * Makes a polyphonic analyser for `count` strings (1…CT_POLY_MAX_STRINGS) with target fundamentals `targets` (Hz, within
 * the config's frequency range, no two closer than 260 cents). Returns NULL and writes a reason into
 * `error` (if given) otherwise.
 */
ct_poly *ct_poly_create(const ct_config *config, const double *targets, size_t count, ct_poly_callback callback,
                        void *context, char *error, size_t error_capacity);

/** Frees the analyser. NULL is ignored. */
void ct_poly_destroy(ct_poly *poly);

/** Feeds `count` mono samples (any count, including 0). Non-finite samples are treated as 0. */
void ct_poly_process(ct_poly *poly, const float *samples, size_t count);

/** Forgets all input (time restarts at 0). */
void ct_poly_reset(ct_poly *poly);

/** Samples between results. */
size_t ct_poly_hop_size(const ct_poly *poly);

#ifdef __cplusplus
}
#endif

#endif /* CTUNER_H */
