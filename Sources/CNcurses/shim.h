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

/* Terminal plumbing the screen needs beside curses: stdio streams for newterm, the window size
 * (ioctl is variadic, which Swift cannot call), and bytes waiting on a descriptor. */
#include <stdio.h>
#include <signal.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <sys/ioctl.h>

static inline FILE *ctuner_stdout(void) { return stdout; }
static inline FILE *ctuner_stdin(void) { return stdin; }
static inline int ctuner_window_size(int fd, int *rows, int *cols) {
    struct winsize ws;
    if (ioctl(fd, TIOCGWINSZ, &ws) != 0 || ws.ws_row == 0 || ws.ws_col == 0) return -1;
    *rows = ws.ws_row;
    *cols = ws.ws_col;
    return 0;
}
static inline int ctuner_pending_bytes(int fd) {
    int n = 0;
    return ioctl(fd, FIONREAD, &n) == 0 ? n : -1;
}

/* Fatal signals (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT), for the whole process (installed first
 * thing in main): while the screen is up, put the terminal back first, with async-signal-safe calls
 * only — the termios saved before curses started and an escape sequence that resets attributes, shows
 * the cursor and leaves the alternate screen. Then:
 *  - a signal another process sent (`kill -SEGV`; si_code <= 0 and another pid) takes its default
 *    action at once: Swift's backtracer would otherwise print a "crash" report over the screen and
 *    return, and the tuner would run on;
 *  - a real fault goes to the handler that was there before (Swift's backtracer, for a bug report),
 *    and then the default action, so the process always ends. */
struct ctuner_crash_state {
    struct termios saved_termios;
    volatile sig_atomic_t screen_active;
    int installed;
    struct sigaction previous[5];
};
static const int ctuner_fatal_signals[5] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };

/* The state lives in a function so that it is emitted wherever the functions are (Swift's importer
 * does not emit a header's file-scope statics). Each object file that calls these gets its own copy,
 * so call them from one Swift file only (CursesTerminal.swift). */
static inline struct ctuner_crash_state *ctuner_crash_state(void) {
    static struct ctuner_crash_state state;
    return &state;
}

static inline void ctuner_crash_handler(int sig, siginfo_t *info, void *context) {
    /* sgr0, cursor visible, keypad transmit off (rmkx), leave the alternate screen (rmcup). */
    static const char reset[] = "\033[0m\033[?25h\033[?1l\033>\033[?1049l\r\n";
    struct ctuner_crash_state *state = ctuner_crash_state();
    if (state->screen_active) {
        state->screen_active = 0;
        tcsetattr(STDIN_FILENO, TCSANOW, &state->saved_termios);
        ssize_t ignored = write(STDOUT_FILENO, reset, sizeof reset - 1);
        (void)ignored;
    }
    int sent = info == NULL || (info->si_code <= 0 && info->si_pid != getpid());
    for (int i = 0; i < 5 && !sent; i++) {
        if (ctuner_fatal_signals[i] != sig) continue;
        struct sigaction *previous = &state->previous[i];
        if ((previous->sa_flags & SA_SIGINFO) && previous->sa_sigaction != NULL) {
            previous->sa_sigaction(sig, info, context);
        } else if (previous->sa_handler != SIG_DFL && previous->sa_handler != SIG_IGN) {
            previous->sa_handler(sig);
        }
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Once, before anything else runs. */
static inline void ctuner_install_fatal_signal_handlers(void) {
    struct ctuner_crash_state *state = ctuner_crash_state();
    if (state->installed) return;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = ctuner_crash_handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_SIGINFO | SA_NODEFER;
    for (int i = 0; i < 5; i++) sigaction(ctuner_fatal_signals[i], &action, &state->previous[i]);
    state->installed = 1;
}

/* Call before curses changes the terminal modes: a fatal signal from now on restores them. */
static inline void ctuner_install_crash_restore(void) {
    struct ctuner_crash_state *state = ctuner_crash_state();
    ctuner_install_fatal_signal_handlers();
    if (tcgetattr(STDIN_FILENO, &state->saved_termios) == 0) state->screen_active = 1;
}

/* Call after the terminal was restored the ordinary way. */
static inline void ctuner_remove_crash_restore(void) { ctuner_crash_state()->screen_active = 0; }

/* Whether the terminal TERM names can draw the screen: known to terminfo and able to move the cursor
 * (`cup`). TERM=dumb (Emacs' M-x shell, some IDE consoles) is known but cannot: the screen would stay
 * blank. 1: it can; 0: it cannot; -1: TERM is unknown (newterm reports that itself). */
#include <ncursesw/term.h>
static inline int ctuner_terminal_can_draw(void) {
    int error = 0;
    if (setupterm(NULL, STDOUT_FILENO, &error) != OK) return -1;
    char *move = tigetstr("cup");
    int can = move != NULL && move != (char *)-1;
    del_curterm(cur_term);
    return can;
}

/* Drawing helpers: attributes and colour pair set and a string put in one call (wattr_set is a macro
 * in some ncurses builds). */
static inline int ctuner_put(int y, int x, const char *text, attr_t attributes, short pair) {
    wattr_set(stdscr, attributes, pair, NULL);
    return mvwaddstr(stdscr, y, x, text);
}
static inline attr_t ctuner_a_normal(void) { return A_NORMAL; }
