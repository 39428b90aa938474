// LevelRise.hpp — attacks heard in the level of the results: a pluck, a re-attack or a new bow stroke
// raises the level well above what it was a moment before.
//
// The other half of the engine's onset: OnsetGuard hears a pluck breaking the periodicity of a string
// that still rings (also a re-pluck at the same level); LevelRise hears a note that starts over
// silence, over a decayed note or after a dropout of pitch, where there is no ringing period to break.
#pragma once

#include <cstddef>
#include <vector>

namespace ctuner {

/// A result is an attack when its level is
/// - at least kRiseDb above the loudest result between kLookbackSeconds and kRiseSeconds before it
///   (a new pluck over a decayed one, a note after a rest), or
/// - at least kJumpDb above the quietest result of the last kJumpSeconds and at least kOverPreviousDb
///   above that loudest earlier result (a string stopped and plucked again while it still rang loud:
///   a short dip, then a level above the one before).
///
/// Comparing with the loudest, not the quietest, earlier result is what keeps a decaying note's level
/// from counting when it recovers from a dip (stereo phase cancellation, beating partials) or flickers
/// at the gate: it only gets back to where it was. After an attack no other is reported until the
/// level has stopped rising for kRiseSeconds, so one attack — whose level climbs while the window
/// fills — is one. The input starts after silence: while the lookback reaches back before the first
/// result, the loudest earlier level counts as at least kInputPastDb, so a note that starts with the
/// input has its attack at its first sounding result, and its level's climb while the windows fill
/// (they still hold the silence before the input) is that attack's rise — not a second attack
/// kRiseSeconds later.
///
/// Its memory (the results of the last kLookbackSeconds) is allocated once, in the constructor.
class LevelRise {
public:
    /// `hopSeconds`: the time between results (sizes the memory).
    explicit LevelRise(double hopSeconds);
    /// Takes the next result's time and level (dBFS); true when an attack starts at it. `heardElsewhere`:
    /// an attack was heard at this result another way (a periodicity break); it is one attack with the
    /// level's rise that follows it, so true is returned and no other attack until the level stops rising.
    bool process(double time, double levelDb, bool heardElsewhere = false);
    /// Forgets the levels seen, as at the start of a new input.
    void reset();

private:
    struct Entry {
        double time, level;
    };
    std::vector<Entry> entries_;  // a ring of the newest results, oldest at head_
    std::size_t head_ = 0, count_ = 0;
    bool started_ = false;        // a result was seen since the start (or reset) …
    double firstAt_ = 0;          // … at this time
    bool rising_ = false;         // an attack is still rising …
    double peak_ = 0, peakAt_ = 0; // … its loudest level and when
};

/// How far (dB) the level must rise above the loudest result of the lookback: 6 dB. On the public half
/// of the real recordings (Benchmarks/settle_report.py) the largest rise within one note after its
/// attack was 3.5 dB (a pizzicato cello's level coming back from a dip), bowed notes 1.6 dB; a re-pluck
/// of a string that has rung for 1.5 s (decay 0.8 s, SettleBehaviourTests) rises 9+ dB. Guards against a
/// swell or a dip's recovery being taken for a new note, and against re-plucks being missed.
constexpr double kRiseDb = 6.0;
/// The earliest of the earlier results compared with: 0.5 s before. A dip narrower than
/// kLookbackSeconds − kRiseSeconds (0.35 s) that comes back up is no attack (the recovery is compared
/// with the level before the dip); a longer silence is, so a note played again after 0.35 s of silence
/// is a new note. The widest dip inside one note of the public real recordings: 0.3 s (a pizzicato
/// cello C2, −47 dB between −24 and −30).
constexpr double kLookbackSeconds = 0.5;
/// The latest of the earlier results compared with, and how long the level must stop rising before
/// another attack is reported: 0.15 s. An attack's level rises for as long as the window takes to fill
/// (64 ms; 0.29 s at 41 Hz) and a bow's may rise in steps: shorter would report one slow attack as
/// several; longer would merge two plucks 0.2 s apart.
constexpr double kRiseSeconds = 0.15;
/// How far (dB) the level must jump within kJumpSeconds for the second kind of attack: 8 dB. The public
/// real recordings jump at most 2.4 dB in 0.1 s after their attack (8 dB only while recovering from a
/// dip, which kOverPreviousDb rules out); a FluidR3 nylon guitar E2 stopped and plucked again while
/// ringing jumps 9.8 dB from its dip.
constexpr double kJumpDb = 8.0;
/// The span of that jump: 0.1 s, as long as the dip of a string stopped and plucked again (the FluidR3
/// nylon E2 of settle_report.py: 0.1 s from its release to the next pluck); a dip that ended longer ago
/// is a level the note already came back from.
constexpr double kJumpSeconds = 0.1;
/// The level before the input, for the lookback's part that reaches back before the first result:
/// −120 dBFS, the engine's floor (digital silence). A note that starts with the input is then an attack
/// at its first sounding result. Before, the first result had nothing to compare with, and a note that
/// started with the input was compared, kRiseSeconds later, with its own first, still quiet results
/// (the level window held the silence before the input): an onset 0.16 s into every input, which cut
/// the FluidR3 pizzicato G3 of Benchmarks/settle_report.py to a note too short to settle.
constexpr double kInputPastDb = -120.0;
/// How far (dB) above the loudest result of the lookback a jump must end: 2 dB. The public real
/// recordings, after their attack, get at most 1.8 dB above it (a pizzicato cello C2); the re-plucked
/// nylon E2 gets 3.8 dB above it.
constexpr double kOverPreviousDb = 2.0;

} // namespace ctuner
