import CNcurses
import TunerKit
// PLACEHOLDER — the ncurses screen is being written.
public enum TunerScreenPlaceholder {}
