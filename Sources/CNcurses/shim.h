/* ncursesw (Debian: libncursesw5-dev). Accessors for what Swift cannot import (macros, globals). */
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <ncursesw/curses.h>
#include <locale.h>

static inline WINDOW *ctuner_stdscr(void) { return stdscr; }
static inline int ctuner_lines(void) { return LINES; }
static inline int ctuner_cols(void) { return COLS; }
static inline attr_t ctuner_a_bold(void) { return A_BOLD; }
static inline attr_t ctuner_a_reverse(void) { return A_REVERSE; }
static inline attr_t ctuner_a_dim(void) { return A_DIM; }
static inline attr_t ctuner_a_underline(void) { return A_UNDERLINE; }
static inline int ctuner_color_pair(int n) { return COLOR_PAIR(n); }
