/* alsa-lib (Debian: libasound2-dev). */
#include <alsa/asoundlib.h>

/* snd_lib_error_handler_t is variadic, which Swift cannot express: this keeps alsa-lib's own
 * diagnostics (e.g. "Unknown PCM default") off stderr, where they would wreck the screen. */
static void ctuner_alsa_silent_error(const char *file, int line, const char *function, int err,
                                     const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}
static inline void ctuner_alsa_silence_errors(void) { snd_lib_error_set_handler(ctuner_alsa_silent_error); }
