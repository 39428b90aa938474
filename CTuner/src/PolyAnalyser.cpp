// PolyAnalyser.cpp — see PolyAnalyser.hpp.
#include "PolyAnalyser.hpp"

#include "Arithmetic.hpp"
#include "Geometry.hpp"
#include "StringPartials.hpp"
#include "StringPresence.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace ctuner {
namespace {
/// The frame: 0.25 s (0.2 s read a flat E2 beside D3 and B3 with too few partials of its own; 0.3 s
/// read A2 −15 ¢ under coincident partials 1.7 ¢ off against 1.0 ¢ at 0.25 s: PolyTests). Partials of different strings closer than the Blackman–Harris main lobe
/// (±4/L: ±16 Hz at 0.25 s) bias each other's phase advance; the strings of a guitar interleave their
/// partials every ~25 Hz on average, so a shorter frame leaves each string too few partials of its own,
/// and a longer one delays the first clean reading after a strum (target: ≤ 400 ms). Measured with
/// Benchmarks/strums.py on the tuning seeds (BENCHMARKS.md, "Strums").
constexpr double kFrameSeconds = 0.25;
/// The long frame (PolyAnalyser.hpp): 0.5 s. Measured with Benchmarks/strums.py's tuning part, each
/// length alone as the only frame: FluidR3 strums' sounding string-hops not heard 13.4 / 8.5 / 10.2 %
/// at 0.25 / 0.5 / 0.75 s, 40 dB synthetic p95 0.90 / 0.42 ¢ at 0.25 / 0.5 s, but strum to ±1 ¢ of final
/// 0.31 / 0.56 / 0.73 s (target 0.4 s): the long frames alone start too late, hence both.
constexpr double kLongFrameSeconds = 0.5;
/// A string's long-frame reading is taken only when its own partials there (where the long fit found
/// them) stand in the short frames at most this many dB under the long frames, each measured as a
/// sinusoid's amplitude: what the long frames read of the string must be what the short frames hear of
/// it, else the short frames' reading is given. Guards against the long frames reading a string on
/// another string's partials that the short frames hold far weaker: strums.py's FluidR3 tuning strum
/// 202, whose E4 read +13.5 ¢ in median without this rule, +5.2 ¢ at 6 dB, +1.1 ¢ at 4, +0.5 ¢ at
/// 2.5 (its truth: 0). Too strict only gives back the short reading: on strums.py's damped tuning
/// strums ringing strings stand 0.66 dB under in median, 1.25 dB at the 5th percentile, 3.5 dB at the
/// 0.1th (17,293 string-hops); at 2.5 dB the tuning part's other figures move by ≤ 0.01 ¢ (FluidR3 settle
/// 1.83 → 1.61 s). No unit test brackets it: its evidence is a soundfont render. It is asked only
/// where the short frames hear the string and have a reading to give instead; a string they have lost is
/// kKeptVetoDb's.
constexpr double kLongVetoDb = 4.0;
/// A string the short frames have lost but that is kept (established, kEstablishedSeconds) is read from
/// the long frames until its own partials there stand more than this many dB over the same frequencies in
/// the short frames; from that hop it is taken for gone until the short frames hear it again. The short
/// frames have no reading to give instead, so the gap only has to tell a string still ringing from one
/// stopped: a string ringing on stands under the long frames by its decay over the frames' lag (the
/// 0.25 s frame's middle is 0.125 s newer than the 0.5 s frame's) or a dip in the shorter frame, 4–8 dB
/// for most of the FluidR3 renders' B3s and E4s the short frames lose, steadily or for a few hops; a
/// palm-damped string's gap widens by ~1.3 dB a hop (strums.py's damped tuning strum 2: 1.6 dB 0.08 s
/// after the palm, 13.5 dB at 0.18 s), and narrows again as the palm reaches the long frame's middle,
/// hence the latch. With kLongVetoDb (4 dB) here too, those FluidR3 strings were not heard while their
/// long-frame readings were right: on strums_fresh.py's FluidR3 strums, 211 B3 and E4 string-hops were
/// held back by the veto alone with the long frames within 3 ¢ of the truth, 45 with them further off.
/// Measured (strums.py's tuning part, FluidR3 not heard / p95; damped strings reported): 4 dB 3.50 % /
/// 4.347 ¢, 0.55 %; without the latch, 6 / 8 / 12 dB 3.15 / 3.05 / 3.05 % and 3.944 / 3.880 / 3.880 ¢,
/// 0.58 / 0.68 / 1.00 % (never: 1.39 %, over the 1 % target); with it, strums_fresh.py's FluidR3 p95
/// 4.172 / 3.984 / 3.975 ¢ at 8 / 10 / 12 dB (4 dB: 4.429 ¢), and the tuning part at 10 and 12 dB
/// 3.05 % / 3.880 ¢, damped strings reported 0.68 / 0.76 %. At 8 dB a steel
/// E4 whose gap rose to 8.9 dB for five hops was lost until the short frames heard it again, 0.17 s later
/// (PolyCLITests: aSteelHighETheShortFramesLostIsKept…, which fails at 8 and at 4); at 14 dB, or without
/// the latch, strum 2's damped B3 is read 0.26 s after the palm (PolyCLITests:
/// aPalmDampedB3TheShortFramesLost…, which bounds it at 0.16 s).
constexpr double kKeptVetoDb = 10.0;
/// When the short and the long frames both hear a string but read it more than this many cents apart,
/// one of them is on another string's partials (a reading that far off is a wrong one: strums.py's
/// WRONG_CENTS), and the reading whose own partials include more that no other string's series claims
/// (StringPartials::cleanCount) is taken, whatever kLongVetoDb and kLongAfterAttackSeconds say; on a
/// tie those decide. strums.py's FluidR3 strum 201: its E4 (−24.2 ¢) was read on E2's 4th, 8th, …
/// partials by the short frames (+41 ¢ off, no clean partial) while the long frames read it right on
/// 5–7 clean ones, but the veto (3–6 dB) and the strum's attack kept the short reading. Tuning part,
/// FluidR3 heard string-hops read over 10 ¢ off the truth: 65 without the rule, 32 / 32 / 37 / 42 / 49 at
/// 3 / 5 / 10 / 20 / 40 ¢, every other figure the same; at 1 ¢ strum to ±1 ¢ of final 1.625 → 1.825 s.
/// PolyTests' allSixStringsDetunedIndependently… and theLongFramesAreReadOnlyOnce… fail at 2.5 ¢ and
/// under (the long frames, still holding the strum's onset, read E2 2.8 ¢ off with more clean
/// partials); PolyCLITests' aHighEReadOnTheLowEsSeriesByTheShortFrames… (that strum's first second)
/// fails without the rule. 10: the wrong-reading line itself, 3.6 times the onset's error.
constexpr double kDisagreeCents = 10.0;
/// The long frames' readings are taken only this long after the short frames' last attack hop (a strum
/// begun; StrumPass.cpp: kAttackEnergyRise): until then the long frame pair, 0.75 s from the older frame's start to
/// the newer one's end, still holds the onset, and the string's phase advance over it is biased. On
/// PolyTests' allSixStringsDetuned… strum the E2 read 3.5 ¢ off 0.48 s after the strum when the long
/// frames were taken at once, 1.6 ¢ at 0.3 s, 0.26 ¢ at 0.4 s, 0.02 ¢ at 0.5 s (the test's bound is
/// 2 ¢; theLongFramesAreReadOnlyOnce… bounds strings 1–5 at 0.1 ¢ and fails at 0.4 s). strums.py
/// tuning part at 0.4 / 0.5 / 0.6 s: 40 dB p95 0.421 / 0.435 / 0.439 ¢, 20 dB p95 0.902 / 0.953 /
/// 0.988 ¢, FluidR3 median 0.590 / 0.574 / 0.541 ¢, settle times and identification the same: 0.5, the
/// onset gone from the pair, not a figure's optimum.
///
/// The wait is for a string the short frames hear, whose reading it keeps to them. A kept string they do
/// not hear (lost, or placed elsewhere while the long frames establish it; establishing takes 0.15–0.3 s
/// since the attack: kEstablishedSeconds, kSteadyLongSeconds) has no other reading, and is read from the
/// long frames at once while kKeptVetoDb holds. The attack hops last as long as the onset lies in a short
/// frame (~0.25 s), so the wait ran to ~0.8 s after every strum, and a bass's low strings, which the short
/// frames part worst, went unreported until then: a five-string bass's E1 15.7 ¢ flat, searched by the
/// short frames at 38.6 Hz and established by the long frames' steady reading at 0.67 s, was reported from
/// 0.79 s, and is now from 0.67 s, within 0.2 ¢ of its truth
/// (Tests/Fixtures/strums/synthetic_bass5_strum_62.flac: PolyCLITests'
/// aFiveStringBassesLowEOnlyTheLongFramesHear…, which fails with the wait). Measured with the wait /
/// without it for such a string: strums_fresh.py, sounding string-hops not heard and p95, FluidR3 2.77 /
/// 2.56 %, 3.852 / 3.802 ¢; near in tune 1.58 / 1.45 %, 3.507 / 3.457 ¢; TimGM6mb 0.52 / 0.48 %, 1.212 ¢
/// both; MuseScore 2.88 / 2.58 %, 3.607 / 3.574 ¢; other tunings 0.72 / 0.56 %, 0.610 / 0.567 ¢; muted
/// other tunings 1.03 / 0.92 %, 0.551 / 0.531 ¢, muted strings reported 0.08 % both. The string-hops it
/// adds are read within 0.15 ¢ of the truth in median, 0.75 ¢ at p95, on the synthetic other tunings (203),
/// but 4.1 ¢ in median on FluidR3 (58: B3s and E4s whose readings are as far off before and after). Not
/// from a shorter wait for every string: at 0.2 / 0.3 / 0.4 s for all, FluidR3's median rose 0.485 → 0.519
/// / 0.520 / 0.512 ¢ and its near-in-tune p95 3.507 → 3.644 / 3.644 / 3.546 ¢.
constexpr double kLongAfterAttackSeconds = 0.5;
/// A string the short frames have heard on every hop for this long since the last attack is established:
/// when the short frames lose it, the long frames keep it while they hear it (and kKeptVetoDb holds), unless
/// a palm has damped it (PalmWatch). A B3 or E4 beside the low E's or A's partials, or any string
/// decaying into noise, drops out of the short frames' finer balance of claims first. Not from the first hop heard: a string nobody played flashes a reading on a few hops (room
/// noise, sympathetic ringing), and a bowed note has no second attack to forget it. Silent strings
/// reported on the real recordings' development half (Benchmarks/poly_real.py; 3.69 % with the short
/// frames alone): 4.51 % when any string heard since the attack was kept, 3.91 % at 0.1 s, 3.77 % at
/// 0.2 s, 3.69 % at 0.3 s; the weak-fundamental set's FluidR3 renders (silent reported 4.04 %): 4.57 %
/// at 0.1 s, 4.05 % at 0.2 s, 4.04 % at 0.3 s. strums.py tuning part, sounding string-hops not heard,
/// FluidR3 / 20 dB: 13.43 / 3.95 % without, 9.36 / 1.79 % at 0.2 s, 10.14 / 1.81 % at 0.3 s, 12.10 /
/// 2.57 % at 0.5 s. PolyTests' aB3LostInTheNoise… fails without the rule and at 0.6 s (passes at 0.1–0.5).
///
/// A string the short frames place elsewhere — not heard by them, their search ending more than
/// kDisagreeCents from the long frames' reading or nowhere in its range — while the long frames hear it
/// on every hop for this long, once past the attack (kLongAfterAttackSeconds), is established the same
/// way. The short frames' harmonic sum can settle a low string beside its own partials, on other
/// strings' (the 0.25 s frames' main lobes are ±16 Hz wide, so a candidate a bin off a low E's 1st
/// collects it and its neighbours' partials too): in a guitar strum without its B3 and E4, the E2 was
/// searched at 78.4 Hz on G3's 2nd, 4th and 6th partials on every hop and never reported, though the
/// long frames read it to 0.01 ¢ from 0.5 s (PolyTests: aLowEOnlyTheLongFramesPlaceIsReported…, which
/// fails without the rule). Only where the short frames have no reading of the string to set against
/// the long frames': established whenever the short frames do not hear it, a faint G2 the short frames
/// find where the long frames do but do not start (kOwnOverFloorDb) was reported on 40 % of its hops
/// (PolySilenceTests: aStringFaintOverTheNoiseDoesNotStart…). strums.py's tuning part: the muted strum
/// 15's E2 heard from 0.95 s instead of never (muted strums' sounding string-hops not heard 1.11 →
/// 0.25 %, identified 98.9 → 100 %); the other-tunings set's not heard 18.15 → 13.01 % (cello 6.28 →
/// 1.44 %, drop D 4.84 → 1.66 %, bass 43.75 → 29.23 %), identified 86.1 → 93.1 %, readings over 10 ¢ off
/// 34 → 34; every other figure of the part, and the silent strings on the real recordings' development
/// half (0.88 %), the same.
///
/// The short frames have no reading to set against the long frames' either where they find fewer than
/// kMinOwnPartials own partials of the string: what they found of it is other strings' partials. In an
/// open tuning every string lies on the lowest one's series, and the 0.25 s frames' main lobes merge
/// that string's partials from its 2nd up with the others', leaving it its 1st alone, while the long
/// frames part its odd ones (PolyTests: anOpenDsLowDWhose…, whose D2 was heard on 28 % of the hops from
/// 1.0 s without this, 83 % with it; the faint G2, all of whose partials are its own, still does not
/// start). strums.py's tuning part: the other-tunings set's not heard 8.87 → 6.84 % (open D 21.24 →
/// 14.85 %, open E 18.26 → 12.41 %, 6-string bass 25.96 → 17.18 %), identified 96.7 → 98.5 %, readings
/// over 10 ¢ off 11 → 11; every other figure identical, and so are the real recordings' silent strings
/// and the weak-fundamental set's figures.
///
/// Nor where every partial they take as the string's own is shared with another string's series
/// (StringPartials::unclaimedCount is 0), whether they hear it or not: what they read of it then rests on
/// merged peaks, and whether they hear it flickers from hop to hop, which kept both counts short. An open
/// E's E3 tuned 42 ¢ over E2's octave has its 1st and 2nd partials 4 and 8 Hz from E2's 2nd and 4th, inside
/// the 0.25 s frames' collision distance (12 Hz), its 3rd at its edge, while the long frames part them from
/// the 2nd up and read it to 1.5 ¢ (PolyTests: anOpenEsE3WhoseShortFramePartials…, heard on 41 → 67 % of
/// the hops from 1.0 s). strums.py's tuning part (192 other-tunings strums): not heard 3.94 → 3.48 % (open
/// E 9.45 → 7.64 %, its E3 44 → 38 % and B3 11 → 6 %; open D 9.15 → 6.96 %; open G 5.62 → 4.58 %; drop C
/// 3.30 → 2.82 %), p95 1.95 → 1.52 ¢, readings over 10 ¢ off 102 as before; the synthetic strums' not heard
/// 0.15 → 0.13 % (40 dB) and 1.81 → 1.79 % (20 dB); every other figure, the real recordings' silent strings
/// (0.76 %) and the weak-fundamental set's (3.69 %) the same. Counting only own partials above the 2nd
/// (cleanCount): 3.37 %, but a faint string alone, whose short frames find its 1st and 2nd partials and no
/// more, was established on the long frames (PolySilenceTests: aStringFaintOverTheNoiseDoesNotStart…
/// fails).
///
/// Nor where the long frames part the string's 1st partial from every other string's series (found, its
/// own, claimed by none: firstPartialClear) and the short frames do not, and do not hear it: a B3 20 ¢
/// flat lies 6 Hz under the low E's 3rd partial, one peak in the 0.25 s frames, and the short frames' search
/// for it rests on its higher partials, which the other strings share; it stays within kDisagreeCents of
/// the long frames' reading, so it did not count as placed elsewhere (strums_fresh.py's FluidR3 strum 519,
/// now the fixture Tests/Fixtures/strums/fluidr3_nylon_strum_519.flac: its B3, read to 1.2 ¢ by the long
/// frames, was heard on none of the 69 hops from 0.72 to 1.4 s, now on 33 (27 by this rule alone); PolyCLITests:
/// aNylonB3WhoseFirstPartialOnlyTheLongFramesPart…). Such hops count from the attack on, not only once
/// past it (kLongAfterAttackSeconds): the 1st partial apart from every other series is what a muted string
/// on another string's series has not, and a 5- or 6-string bass's B0 and E1, parted there only by the
/// long frames, were first reported 0.8 s after the strum's attack instead of 0.5 s (PolyTests:
/// aFiveStringBassesLowBWhoseFirstPartial…, B0 from 1.04 → 0.76 s). Counted from the attack without
/// that partial, strums.py's muted tuning strum 13 (Tests/Fixtures/strums/synthetic_strum_13_a2_e4_muted.flac)
/// reported its muted E4, on the low E's series, on 8 hops from 0.82 s (PolyCLITests:
/// aMutedHighEOnTheLowEsSeries…), and the muted other-tunings strums' muted strings 0.82 → 0.89 %.
/// Measured, before → the 1st-partial rule → counted from the attack: strums_fresh.py's FluidR3 not
/// heard 3.93 → 3.80 → 3.77 % (p95 5.08 → 4.85 → 4.84 ¢), other tunings 1.54 → 1.49 → 1.14 %;
/// strums.py's tuning part, other tunings 1.84 → 1.80 → 1.43 % (p95 0.772 → 0.755 → 0.645 ¢; the
/// 6-string bass's B0 25 → 24 → 15 %, E1 24 → 22 → 13 %), muted strings reported unchanged (0.01 %
/// guitar, 0.82 % other tunings); the weak-fundamental set's silent strings 3.63 → 3.65 → 3.65 %, its
/// played notes and the real recordings' development half (0.67 %) unchanged; every guitar and
/// FluidR3 figure of the tuning part the same.
///
/// And so is a string heard this long by the one route or the other from hop to hop — the short frames
/// hearing it within kDisagreeCents of the long frames' reading, or only the long frames hearing it as
/// above — while the long frames hear it throughout: each count alone restarts whenever the short frames
/// find the string again or lose it, and a low string they hear one hop in three never reached either.
/// strums_fresh.py's bass5 strum 65 (in neither part; Tests/Fixtures/strums): B0, which the long frames
/// read to 0.01 ¢ from 0.8 s, was not heard on 24 of the 30 hops from 0.86 to 1.14 s, now on none
/// (PolyCLITests: aFiveStringBassesLowBHeardByTurns…). Without the agreement, a high E the short frames
/// read on the low E's series 14 ¢ off was established on it (PolyCLITests: aHighEReadOnTheLowEsSeries…
/// fails) and the weak-fundamental set's silent strings rose 3.67 → 3.82 %. Measured, before → with it:
/// strums.py's tuning part, other tunings not heard 1.03 → 0.85 % (the 5-string bass's B0 13 → 7 %,
/// the 6-string's B0 10 → 9 %, E1 8 → 6 %), readings over 10 ¢ off 52 → 52, muted strings reported
/// 0.88 % → 0.88 %, every guitar and FluidR3 figure the same; strums_fresh.py's other tunings 0.79 → 0.76 %,
/// muted other tunings 1.40 → 1.13 % (muted strings reported 0.13 % both), TimGM6mb 0.86 → 0.79 %, FluidR3
/// and MuseScore the same; the weak-fundamental set's silent strings 3.67 → 3.69 %, the real recordings'
/// development half 0.62 % unchanged.
constexpr double kEstablishedSeconds = 0.3;
/// A string only the long frames hear (onlyLongInARow above) is established sooner, after this long, when
/// over it their reading of it has moved by no more than kSteadyLongCents from each hop to the next: a 5- or
/// 6-string bass's B0 and E1, which only the long frames part, read steadily from their first hops, while the
/// 0.3 s wait is for readings that still carry the strum's onset or flicker between neighbours' partials.
/// strums_fresh.py's bass5 strum 65 (in neither part; Tests/Fixtures/strums): B0 heard on 71 of the 181 hops
/// from 0.7 s, now 157 (PolyCLITests: aFiveStringBassesLowBReadSteadilyBy…, 18 → 46 of 51 hops from 1.1 to
/// 1.6 s; at 0.1 s 51). Measured without / at 0.2 / 0.15 / 0.1 s, strums.py's tuning part: other tunings' not
/// heard 1.40 / 1.23 / 1.03 / 0.89 % (the 5-string bass 7.78 → 3.77 % at 0.15 s, its B0 21 → 13 %, E1
/// 15 → 5 %; the 6-string 4.70 → 3.09 %), p95 0.643 / 0.601 / 0.569 / 0.542 ¢; muted other-tunings strums'
/// sounding strings 1.21 / 1.15 / 1.04 / 1.00 %, their muted strings reported 0.84 / 0.86 / 0.88 / 0.89 % (a
/// 6-string bass's muted C3 read on B0's 4th partial, from 0.94 s instead of 1.09 s); 20 dB strums not heard
/// 0.52 / 0.42 / 0.42 / 0.40 %; FluidR3 not heard 3.50 % but at 0.1 s 3.42 %; the weak-fundamental set's
/// silent strings 3.67 % but at 0.1 s 3.70 %; the real recordings' development half 0.62 % at each.
/// strums_fresh.py: other tunings 1.10 / 1.03 / 0.79 / 0.76 %, muted other tunings
/// 1.74 / 1.47 / 1.40 / 1.22 %, MuseScore 3.60 / 3.60 / 3.35 / 3.26 %, FluidR3 3.55 / 3.55 / 3.48 / 3.41 %;
/// but FluidR3's readings over 10 ¢ off 83 / 83 / 102 / 102: strum 519's E4, which the long frames read on
/// the low E's series, is reported 0.25 s sooner. 0.15 s: the 0.1 s gains cost silent strings.
constexpr double kSteadyLongSeconds = 0.15;
/// How far the long frames' reading may move from one hop to the next over kSteadyLongSeconds. Without the
/// bound, strums_fresh.py's FluidR3 strum 511 (Tests/Fixtures/strums) reported its E4, which the long frames
/// read on the low E's 4th partial with jumps of 2–8 ¢ every few hops, to 1.35 s, more than 10 ¢ off on 19
/// hops instead of 4 (FluidR3 readings over 10 ¢ off 102 → 117, not heard 3.48 → 3.32 %; PolyCLITests:
/// aNylonHighEReadUnsteadilyByTheLongFrames…, which fails so). At 0.25 / 0.5 / 1 / 2 ¢ the same 102
/// (strums_fresh.py), FluidR3 not heard 3.48 / 3.48 / 3.43 / 3.42 %, other tunings
/// 0.85 / 0.79 / 0.78 / 0.78 %, muted other tunings 1.45 / 1.40 / 1.40 / 1.40 %; but at 1 ¢ the
/// weak-fundamental set's silent strings 3.67 → 3.73 % (strums.py's tuning part: other tunings 0.90 %).
constexpr double kSteadyLongCents = 0.5;
/// Only the long frames hearing a string counts toward establishing it (onlyLongInARow, above) when
/// their reading of it is within this many cents of its target (a semitone, the detuning a string is
/// searched for; kSearchCents adds a margin to it), or when at least one of its own partials there is
/// unclaimed by every other string's series (StringPartials::unclaimedCount). A reading further off
/// that rests wholly on other strings' partials is another string's series: strums.py's muted tuning
/// strum 205 on a 6-string bass (Tests/Fixtures/strums/synthetic_bass6_strum_205_e1_c3_muted.flac) reported
/// its muted C3 at −125 ¢ on 47 hops from 0.94 s, on B0's 4th and 8th partials (B0 29 ¢ flat) and G2's 5th
/// (PolyCLITests: aSixStringBassesMutedCOnTheLowBsSeries…). Requiring an unclaimed partial whatever the
/// reading lost a 20 dB strum's B3, whose 1st and 2nd partials lie on the low E's 3rd and 6th (strums.py's
/// tuning part, synthetic 20 dB not heard 0.42 → 0.65 %; Tests/Fixtures/strums/synthetic_strum_5_20db.flac,
/// PolyCLITests: aB3OnTheLowEsSeriesAtTwentyDecibels…). Measured, before → with it: strums.py's tuning
/// part, muted other tunings' muted strings reported 0.88 → 0.57 % (the 6-string bass 5.96 → 1.04 %), every
/// other figure identical; strums_fresh.py, the weak-fundamental set and the real recordings'
/// development half identical. Not tuned: a semitone is the detuning.
constexpr double kFarOffCents = 100.0;
/// A string the short frames do not follow and place elsewhere (their search ending more than
/// kDisagreeCents from the long frames' reading, or nowhere), which the long frames have heard for longer
/// than this, is searched by the short frames' next hop from the long frames' reading instead of their
/// harmonic sum (StringPartials::seedFrom); whether it is heard there is still theirs to say. Their
/// harmonic sum can settle a low string beside its own partials, on other strings' (kEstablishedSeconds):
/// then the string's own partials are no string's to claim, and one on its series takes them — in a
/// guitar strum without B3 and E4, the muted B3 at E2's 3rd was reported on 89 % of the hops
/// (PolyTests: aMutedB3OnALowEOnlyTheLongFramesPlace…, which fails without the seed). Not at once: seeded
/// from the long frames' first hop heard, the real recordings' development half reported silent strings
/// on 0.95 % of their hops against 0.88 % (Benchmarks/poly_real.py), and the weak-fundamental set's
/// FluidR3 renders (as the 2nd string of a tuning in fourths) on 3.94 % against 3.65 %, the played notes
/// heard 91.50 % against 91.72 % — what the long frames hear for a hop or two of a silent string. After
/// 0 / 0.05 / 0.1 / 0.2 / 0.3 s: real 0.95 / 0.93 / 0.90 / 0.88 / 0.88 %; weak set silent 3.94 / 3.93 /
/// 3.86 / 3.72 / 3.66 %, played 91.50 / 91.54 / 91.73 / 91.73 / 91.74 %; that test's muted B3 reported on
/// 12 / – / – / 22 / 27 % of its hops, its E2 from 0.48 / – / – / 0.68 / 0.78 s. strums.py's tuning
/// part at 0.2 s: the guitar's sets as without the seed but the muted strums (sounding string-hops not
/// heard 0.25 → 0.04 %); the other-tunings set's not heard 13.01 → 12.08 %. 0.2: the shortest that
/// leaves the real recordings' figure as it was. That test fails at 0.3 s (27 %); from below, only those
/// benchmark figures tell the values apart.
constexpr double kSeedAfterSeconds = 0.2;
/// A string the short frames hear is first reported, after each attack, once they have heard it on
/// every hop for this long (unless it is established): a string nobody played flashes a reading for a
/// few hops on the others' partials or the room's noise, and a real string rings on. On the real
/// recordings' development half (Benchmarks/poly_real.py) silent strings were reported in runs of 1–10
/// hops, 0.62 % of their hops; TinySOL's contrabass A2 (Recordings/real) flashed A1 and D2 for 1–4 hops
/// (PolyCLITests: aBowedContrabassA2sVibrato…, which fails at 0.04 s). Measured at 0 / 0.03 /
/// 0.05 s: that half's silent strings 0.62 / 0.41 / 0.27 %; the weak-fundamental set's 3.69 / 3.27 /
/// 2.98 %, its played notes heard 91.72 / 91.32 / 90.66 % (each note heard 20–50 ms later);
/// strums_fresh.py's FluidR3, TimGM6mb and MuseScore strums unchanged, other tunings not heard 0.76 /
/// 0.78 / 0.79 %, muted other tunings 1.13 / 1.14 / 1.17 % (muted strings reported 0.13 / 0.10 / 0.08 %);
/// strums.py's tuning part at 0.05 s, other tunings not heard 0.85 → 0.88 % and strum to ±1 ¢ of final
/// 0.340 → 0.350 s, muted strings reported 0.01 → 0.00 % (guitar) and 0.57 → 0.44 % (other tunings),
/// every guitar and FluidR3 figure the same. A strum's strings are first read 0.29 s after it instead of
/// 0.25 s (PolyCLITests: aStrumsStringsAreFirstRead…, which fails at 0.06 s). Once reported since the
/// attack, a string that the short frames lose and find again is reported again at once. Reporting only
/// runs this long whatever came before (not only the first): strums_fresh.py's FluidR3 not heard 3.48 →
/// 4.07 %, p95 4.43 → 5.23 ¢ (B3 and E4 flicker).
constexpr double kFirstReportSeconds = 0.05;
/// Each string is looked for within this many cents of its target: a semitone and a margin, so a
/// string a semitone off is still read; its octaves (±1200 ¢) are far outside.
constexpr double kSearchCents = 130.0;
/// A string not reported for longer than this (one frame: what the frame held of it is gone) is
/// reported again only through its 1st partial, found or hidden on another string's partial
/// (StringPartials::confirm). Without its 1st partial, what a silent string finds on real recordings
/// is another note's partials and noise on its 2nd, 3rd, 4th…: a cello's silent A3 read a bowed C2's
/// 7th and 14th partials as its 2nd and 4th (+71 ¢) on 24 % of the hops. Measured with --poly on the
/// development half of the real recordings (Benchmarks/poly_real.py), silent strings reported: 5.94 %
/// without the rule; with it 3.28 / 3.35 / 3.47 / 3.73 / 3.91 / 4.92 % at 0.01 / 0.05 / 0.1 / 0.25 /
/// 0.5 / 3 s. Played strings: heard as before on the real recordings at every value; on the
/// weak-fundamental set (Benchmarks/weak_fundamental.py's files, each note as the 2nd string of a
/// tuning in fourths) 99.65 % of the plucks' steady hops and 91.74 → 91.66 % of the FluidR3 renders'
/// from 0.05 s up, but 99.20 / 91.40 % at 0.01 s: one frame keeps 5× that margin. strums.py tuning
/// part: muted strings reported 0.07 → 0.05 %, every other figure identical (without the hidden 1st
/// partial, seed 204's B3, whose 1st partial sits beside E2's 3rd, went unheard on 7 % of its hops).
/// PolySilenceTests: aSilentStringIsNotHeardOnPartialsAbove… (fails without the rule),
/// aStringBackWithinAFrame… (fails at 0.15 s and at 0.3 s), aStringWhoseFirstPartialIsHidden… (fails
/// without the hidden 1st partial).
constexpr double kResumeSeconds = kFrameSeconds;
/// Targets closer than this cannot have separate search ranges.
constexpr double kMinTargetSpacingCents = 2 * kSearchCents;
/// The string levels are reported in dBFS of the strongest partial's RMS; −120 dBFS when not heard.
constexpr double kSilenceDb = -120.0;
/// Input samples are clamped to ±this before analysis (as in the monophonic engine).
constexpr float kInputLimit = 1e6f;

std::size_t hopLength(const ct_config &c) { return std::size_t(std::lround(c.sample_rate * c.hop_seconds)); }

/// Whether the short frames' search for a string ended nowhere in its range, or more than kDisagreeCents
/// from the long frames' reading of it (kEstablishedSeconds, kSeedAfterSeconds).
bool placedElsewhere(const StringPartials &shortFrames, const StringPartials &longFrames) {
    return shortFrames.frequency() <= 0 ||
           std::abs(centsBetween(shortFrames.frequency(), longFrames.frequency())) > kDisagreeCents;
}

/// Whether a string's 1st partial was found, is its own, and lies on no other string's series.
bool firstPartialClear(const StringPartials &s) {
    for (std::size_t j = 0; j < s.partialCount(); ++j)
        if (s.partials()[j].k == 1) return s.partials()[j].own && !s.partials()[j].claimed;
    return false;
}

std::vector<StringPartials> checkedStrings(const ct_config &c, const double *targets, std::size_t count) {
    Geometry::validate(c);
    if (count == 0 || !targets) throw std::invalid_argument("no strings to listen for");
    if (count > kMaxPolyStrings)
        throw std::invalid_argument("at most " + std::to_string(kMaxPolyStrings) + " strings can be read at once");
    std::vector<StringPartials> strings;
    for (std::size_t i = 0; i < count; ++i) {
        const double t = targets[i];
        if (!(std::isfinite(t) && t >= c.min_frequency && t <= c.max_frequency))
            throw std::invalid_argument("string " + std::to_string(i + 1) + "'s target is outside the frequency range");
        for (std::size_t j = 0; j < i; ++j)
            if (std::abs(1200.0 * std::log2(t / targets[j])) < kMinTargetSpacingCents)
                throw std::invalid_argument("strings " + std::to_string(j + 1) + " and " + std::to_string(i + 1) +
                                            " are tuned closer than " + std::to_string(int(kMinTargetSpacingCents)) +
                                            " cents: their readings could not be told apart");
        strings.emplace_back(t, kSearchCents, int(std::lround(kResumeSeconds / c.hop_seconds)),
                             int(std::lround(kJumpCheckAfterSeconds / c.hop_seconds)));
    }
    return strings;
}
} // namespace

PolyAnalyser::PolyAnalyser(const ct_config &c, const double *targets, std::size_t count)
    : fs_(c.sample_rate), gateDb_(c.gate_db),
      short_(checkedStrings(c, targets, count), c.sample_rate, kFrameSeconds, /* longFrames */ false),
      long_(checkedStrings(c, targets, count), c.sample_rate, kLongFrameSeconds, /* longFrames */ true),
      palms_(c.sample_rate, count, hopLength(c), partialLimitHz(c.sample_rate)),
      hop_(hopLength(c)),
      levelWindow_(std::size_t(std::ceil(kLevelSeconds * c.sample_rate))),
      history_(std::max(long_.frame + long_.advance, palms_.span()) + 16), readings_(count),
      longAfterHops_(std::lround(kLongAfterAttackSeconds / c.hop_seconds)),
      establishedHops_(std::lround(kEstablishedSeconds / c.hop_seconds)),
      steadyLongHops_(std::lround(kSteadyLongSeconds / c.hop_seconds)),
      seedAfterHops_(std::lround(kSeedAfterSeconds / c.hop_seconds)),
      firstReportHops_(std::lround(kFirstReportSeconds / c.hop_seconds)), since_(count) {
    reset();
}

PolyAnalyser::~PolyAnalyser() = default;

void PolyAnalyser::reset() {
    history_.clear();
    palms_.reset();
    consumed_ = sinceHop_ = 0;
    forget();
    for (ct_poly_string &r : readings_) r = {0, 0, 0, kSilenceDb, 0};
}

void PolyAnalyser::forget() {
    for (StringPartials &s : short_.strings) s.forget();
    for (StringPartials &s : long_.strings) s.forget();
    restartSinceAttack();
}

void PolyAnalyser::restartSinceAttack() {
    hopsSinceAttack_ = 0;
    for (SinceAttack &a : since_) a = {};
    palms_.forget();
}

void PolyAnalyser::process(const float *samples, std::size_t count) {
    constexpr std::size_t kChunk = 256;
    float chunk[kChunk];
    while (count > 0) {
        const std::size_t run = std::min({count, hop_ - sinceHop_, kChunk});
        for (std::size_t i = 0; i < run; ++i) {
            const float x = std::isfinite(samples[i]) ? samples[i] : 0.0f;
            chunk[i] = std::max(-kInputLimit, std::min(kInputLimit, x));
        }
        history_.push(chunk, run);
        samples += run;
        count -= run;
        consumed_ += run;
        sinceHop_ += run;
        if (sinceHop_ == hop_) {
            sinceHop_ = 0;
            analyse();
            if (onHop) onHop(double(consumed_) / fs_, readings_.data(), readings_.size());
        }
    }
}

void PolyAnalyser::analyse() {
    const double power = sumOfSquares(history_.latest(levelWindow_), levelWindow_) / double(levelWindow_);
    const double levelDb = power > 1e-12 ? 10.0 * std::log10(power) : kSilenceDb;
    for (ct_poly_string &r : readings_) r = {0, 0, 0, kSilenceDb, 0};
    if (levelDb < gateDb_) {
        forget();
        return;
    }
    long_.run(history_);
    // A string the long frames have heard for kSeedAfterSeconds since the last attack claims its partials
    // in the short frames while their search does not ground it (StringPartials::standBy).
    const bool longPastLastAttack = hopsSinceAttack_ >= longAfterHops_;  // as of the hop before
    for (std::size_t i = 0; i < readings_.size(); ++i)
        short_.strings[i].standBy(longPastLastAttack && since_[i].longInARow >= seedAfterHops_ ? &long_.strings[i] : nullptr,
                                  long_.toAmplitude / short_.toAmplitude, long_.collisionHz);
    short_.run(history_);
    // The short frames' next search for a string they place elsewhere starts where the long frames have
    // heard it for kSeedAfterSeconds (StringPartials::seedFrom).
    for (std::size_t i = 0; i < readings_.size(); ++i) {
        since_[i].longInARow = long_.strings[i].heard() ? since_[i].longInARow + 1 : 0;
        if (since_[i].longInARow > seedAfterHops_ && placedElsewhere(short_.strings[i], long_.strings[i]))
            short_.strings[i].seedFrom(long_.strings[i]);
    }
    if (short_.attack) {
        restartSinceAttack();
    } else if (hopsSinceAttack_ < longAfterHops_) {
        ++hopsSinceAttack_;
    }
    const bool longPastAttack = hopsSinceAttack_ >= longAfterHops_;
    palms_.watch(history_, long(consumed_ / hop_), short_.strings.data(), short_.strings.size(), short_.attack);
    for (std::size_t i = 0; i < readings_.size(); ++i) {
        const StringPartials &s = short_.strings[i], &l = long_.strings[i];
        SinceAttack &a = since_[i];
        a.heardInARow = s.heard() ? a.heardInARow + 1 : 0;
        // Where the short frames have no reading of their own to set against the long frames' (kEstablishedSeconds).
        const bool longFirstApart = firstPartialClear(l);
        const bool shortElsewhere = s.unclaimedCount() == 0 ||
                                    (!s.heard() && (placedElsewhere(s, l) || s.ownCount() < kMinOwnPartials ||
                                                    (longFirstApart && !firstPartialClear(s))));
        const bool longOwnOrNear =
            l.unclaimedCount() > 0 || std::abs(centsBetween(l.frequency(), l.target())) <= kFarOffCents;
        a.onlyLongInARow = (longPastAttack || longFirstApart) && l.heard() && shortElsewhere && longOwnOrNear
                               ? a.onlyLongInARow + 1 : 0;
        // See kSteadyLongSeconds.
        const bool steady = a.onlyLongInARow > 0 && a.lastLong > 0 &&
                            std::abs(centsBetween(l.frequency(), a.lastLong)) <= kSteadyLongCents;
        a.onlyLongSteady = steady ? a.onlyLongSteady + 1 : 0;
        a.lastLong = l.heard() ? l.frequency() : 0;
        const bool byTurns =
            l.heard() && (s.heard() ? std::abs(centsBetween(s.frequency(), l.frequency())) <= kDisagreeCents
                                    : a.onlyLongInARow > 0);
        a.byTurnsInARow = byTurns ? a.byTurnsInARow + 1 : 0;
        a.established = a.established || a.heardInARow >= establishedHops_ || a.onlyLongInARow >= establishedHops_ ||
                        a.byTurnsInARow >= establishedHops_ || a.onlyLongSteady >= steadyLongHops_;
        // Damped (not kept, until the next attack) only by a palm that PalmWatch hears. The short frames' own
        // measure of a string's fall beyond the whole spectrum's (StringPresence: kDampedFallDb) only stops
        // them hearing it: held as a mark, it kept back the long frames' good readings of strings that fall
        // out of the short frames' balance of claims, or decay fast after their attack. It was narrowed twice
        // before it went: to falls measured where the short frames' search was on the string (a fresh FluidR3
        // nylon B3 lost at 0.34 s, Tests/Fixtures/strums/fluidr3_nylon_strum_609.flac: PolyCLITests'
        // aNylonB3TheShortFramesLostIsNotTakenForDamped) and where they had heard it this hop or the one
        // before (a steel E4 lost at 1.28 s and marked at 1.30 s, fluidr3_steel_strum_526.flac:
        // aSteelHighETheShortFramesHadLostIsNotTakenForDamped). A fresh near-in-tune nylon strum's E4, 5.3 ¢
        // flat (fluidr3_nylon_strum_605.flac), was still marked at 0.49 s, its attack falling fast, and not
        // heard on 34 of the 81 hops from 1.1 to 1.9 s once the short frames lost it, while the long frames
        // read it within 3 ¢ (aNylonHighEWhoseAttackFellFastIsNotTakenForDamped; its strum's --announce line
        // left it out). A palm is PalmWatch's (0.08 s frames) and, once the short frames lose the string, the
        // long frames' kKeptVetoDb latch's: strums.py's damped strums report their damped strings on 0.68 %
        // of the hops with the mark or without it (tuning part), and PolyDampedTests pass either way.
        // strums_fresh.py, the mark as narrowed / none: FluidR3 not heard 2.77 / 2.77 %, p95 3.852 / 3.852 ¢;
        // near in tune 2.04 / 1.58 %, 3.739 / 3.507 ¢; every other fresh set the same; strums.py's tuning part,
        // near in tune 2.68 / 2.55 %, 3.987 / 3.892 ¢, every other figure the same.
        a.damped = a.damped || palms_.damped(i);
        if (palms_.damped(i)) continue;
        // Whether a string sounds is the short frames' to say, but for an established string they lose
        // (kEstablishedSeconds); the long frames, when they hear it too, say how it is tuned.
        const bool kept = a.established && !a.damped;
        // The gap is asked of a string the short frames do not hear (the latch), and of one they do once the
        // long frames may be read (kLongAfterAttackSeconds).
        const double underLong = l.heard() && (!s.heard() || longPastAttack) ? shortUnderLongDb(i) : 0;
        if (s.heard()) a.fellAway = false;
        else if (l.heard() && underLong > kKeptVetoDb) a.fellAway = true;
        // See kLongAfterAttackSeconds: its wait holds back only a string the short frames hear.
        bool fromLong = l.heard() && (s.heard() ? longPastAttack && underLong <= kLongVetoDb : !a.fellAway);
        if (s.heard() && l.heard() && s.cleanCount() != l.cleanCount() &&
            std::abs(centsBetween(s.frequency(), l.frequency())) > kDisagreeCents)
            fromLong = l.cleanCount() > s.cleanCount();  // see kDisagreeCents
        if (!(s.heard() || (kept && fromLong))) continue;
        // See kFirstReportSeconds (an established string is kept by the rule above).
        if (!a.established && !a.reported && a.heardInARow < firstReportHops_) continue;
        a.reported = true;
        readings_[i] = fromLong ? reading(l, long_.toAmplitude) : reading(s, short_.toAmplitude);
    }
}

double PolyAnalyser::shortUnderLongDb(std::size_t i) const {
    const StringPartials &l = long_.strings[i];
    double inLong = 0, inShort = 0;
    for (std::size_t j = 0; j < l.partialCount(); ++j) {
        const FoundPartial &p = l.partials()[j];
        if (!p.own) continue;
        const double peak = short_.frames.largestNear(p.frequency, short_.binHz, short_.bins);
        const double inLongFrames = p.magnitude * long_.toAmplitude, inShortFrames = peak * short_.toAmplitude;
        inLong += inLongFrames * inLongFrames;
        inShort += inShortFrames * inShortFrames;
    }
    if (inLong <= 0) return 0;
    return inShort > 0 ? 10 * std::log10(inLong / inShort) : INFINITY;
}

ct_poly_string PolyAnalyser::reading(const StringPartials &s, double toAmplitude) {
    const double rms = std::sqrt(s.ownEnergy() / 2.0) * toAmplitude;
    return {1, s.frequency(), s.inharmonicity(), rms > 1e-6 ? 20.0 * std::log10(rms) : kSilenceDb, s.clarity()};
}


} // namespace ctuner
