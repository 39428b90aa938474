#!/usr/bin/env python3
"""Settled notes on real and rendered recordings (issue 19): does `tuner --file F --announce` say
each note exactly once, in the right octave?

Prints, per file, the lines `tuner --file F --announce` printed, then a table of the totals against
the targets, for four sets:
  public    the real recordings the settle thresholds were chosen on (PUBLIC below);
  holdout   the other real recordings, never looked at while choosing them: scored, not tuned on;
  renders   single notes rendered with FluidSynth (FluidR3 GM): plucked, bowed, sung, 1 s and
            0.5 s long (the thresholds were also chosen on these);
  sequences rendered repeated plucks of one string and peg turns (a pitch bend held while the note
            sounds): each must give one event per pluck / pitch position;
  echoes    rendered guitar plucks through a tape echo made here (seeded: repeats 0.25–0.6 s apart,
            feedback 0.35–0.6, each repeat darker, the tape's wow up to ±3 ¢): one event per pluck,
            never one for an echo. A single pluck each, and pairs of plucks of one string 2 s apart
            whose second pluck comes while the first one's echoes still sound. Public: made so that
            onset and settle rules can be judged on echoes without the holdout's tape-echo recording.

Self-contained: the Python standard library, `fluidsynth` and the `fluid-soundfont-gm` soundfont
(`apt-get install fluidsynth fluid-soundfont-gm`), and a built tuner.

    python3 Benchmarks/settle_report.py [--tuner .build/release/tuner] [--recordings DIR]

The recordings are Recordings/real/ when it exists, else ../shared/real-recordings/; their
manifest.tsv gives each file's nominal note. Exit status 0 when every target is met, 1 otherwise.
"""

import argparse
import array
import math
import os
import random
import re
import struct
import subprocess
import sys
import tempfile
import wave

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SOUNDFONT = "/usr/share/sounds/sf2/FluidR3_GM.sf2"

# The real recordings the thresholds were chosen on: every other file in name order (1st, 3rd, …),
# except that the two pizzicato cello files swap places, because cpluck_01's readings were looked
# at before this split was made. The other nine are the holdout.
PUBLIC = {
    "TinySOL_Cb-ord-A2-mf-2c-N.flac",
    "cbow_00_C2_bowed_long_open.flac",
    "cbow_05_C3_bowed_long.flac",
    "cbow_07_C5_bowed_long.flac",
    "cpluck_01_C2_pluck_long.flac",
    "egfxset_TapeEcho_BridgeMiddle_1-0.flac",
    "flbass_00_c2_finger_long_neck.flac",
    "flbass_04_c2_pick_long.flac",
    "ukulele_02_c3_long_hard.flac",
    "ukulele_06_c4_hard.flac",
}

NAMES = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"]


def note_name(midi):
    return f"{NAMES[midi % 12]}{midi // 12 - 1}"


def parse_note(text):
    m = re.fullmatch(r"([A-Ga-g])([#b]?)(-?\d)", text.strip())
    if not m:
        return None
    base = {"C": 0, "D": 2, "E": 4, "F": 5, "G": 7, "A": 9, "B": 11}[m.group(1).upper()]
    base += {"#": 1, "b": -1, "": 0}[m.group(2)]
    return (int(m.group(3)) + 1) * 12 + base


# ---------------------------------------------------------------- renders

def _vlq(v):
    out = [v & 0x7F]
    v >>= 7
    while v:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    return bytes(reversed(out))


def write_midi(path, program, events, end):
    """A one-track SMF at 960 ticks per second; events are (seconds, bytes) on channel 0."""
    track = bytearray(b"\x00\xFF\x51\x03\x07\xA1\x20")  # tempo 500 000 µs per quarter, division 480
    track += b"\x00" + bytes([0xC0, program])
    last = 0
    for seconds, data in sorted(events, key=lambda e: e[0]):
        tick = round(seconds * 960)
        track += _vlq(tick - last) + data
        last = tick
    track += _vlq(max(0, round(end * 960) - last)) + b"\xFF\x2F\x00"
    with open(path, "wb") as fh:
        fh.write(b"MThd" + struct.pack(">IHHH", 6, 0, 1, 480))
        fh.write(b"MTrk" + struct.pack(">I", len(track)) + bytes(track))


def note_on(t, midi):
    return (t, bytes([0x90, midi, 100]))


def note_off(t, midi):
    return (t, bytes([0x80, midi, 0]))


def bend(t, cents):
    """Pitch bend (default range ±2 semitones) to `cents`."""
    value = max(0, min(16383, 8192 + round(cents / 200 * 8192)))
    return (t, bytes([0xE0, value & 0x7F, value >> 7]))


def bend_glide(t0, t1, c0, c1, steps=10):
    return [bend(t0 + (t1 - t0) * i / steps, c0 + (c1 - c0) * i / steps) for i in range(steps + 1)]


# (name, program, midi, seconds held): single notes, one event expected each.
SINGLE = []
for prog, label, notes, held in [
    (24, "nylon", [40, 45, 50, 55, 59, 64], 3.0),
    (25, "steel", [40, 55, 64], 3.0),
    (33, "fingerbass", [28, 33, 38, 43], 3.0),
    (34, "pickbass", [28, 33], 3.0),
    (42, "cello", [36, 43, 50, 57], 3.0),
    (40, "violin", [55, 62, 69, 76], 3.0),
    (43, "contrabass", [28, 33, 38, 43], 3.0),
    (45, "pizzicato", [36, 55], 2.0),
    (53, "voice", [57, 64], 3.0),
    (24, "nylon-1s", [45, 52], 1.0),
    (40, "violin-1s", [69], 1.0),
    (42, "cello-1s", [50], 1.0),
    (25, "steel-0.5s", [57], 0.5),
    (40, "violin-0.5s", [64], 0.5),
]:
    for m in notes:
        SINGLE.append((f"{label}_{note_name(m)}", prog, m, held))

# (name, program, midi, events, end, expected events): repeated plucks and peg turns.
SEQUENCES = []
for prog, label, m in [(24, "nylon", 40), (25, "steel", 45), (33, "fingerbass", 28), (45, "pizzicato", 55)]:
    evs = []
    for i in range(3):
        evs += [note_on(2.0 * i, m), note_off(2.0 * i + 1.9, m)]
    SEQUENCES.append((f"{label}_{note_name(m)}_3plucks", prog, m, evs, 6.0, 3))
for prog, label, m, cents in [(24, "nylon", 45, 30), (33, "fingerbass", 33, -35), (42, "cello", 50, 30),
                              (40, "violin", 69, -40), (43, "contrabass", 33, 40)]:
    # The peg turned 1.2 s into the note, over 0.2 s, and left there.
    evs = [note_on(0.0, m), note_off(2.8, m)] + bend_glide(1.2, 1.4, 0, cents)
    SEQUENCES.append((f"{label}_{note_name(m)}_peg{cents:+d}c", prog, m, evs, 3.0, 2))


# (name, program, midi, pluck times, seed, expected events): plucks through a tape echo (echo() below).
ECHOES = []
for i, (prog, label) in enumerate([(24, "nylon"), (25, "steel"), (26, "jazz"), (27, "clean"), (29, "overdriven")]):
    for j, m in enumerate([40, 45, 50, 55, 59, 64]):
        ECHOES.append((f"echo_{label}_{note_name(m)}", prog, m, [0.0], 100 + 10 * i + j, 1))
    for j, m in enumerate([40, 55, 64]):
        ECHOES.append((f"echo_{label}_{note_name(m)}_2plucks", prog, m, [0.0, 2.0], 200 + 10 * i + j, 2))


# Sets made to develop on, reported against the same bar but not part of the exit status (issue 19's
# targets are the other four).
DEVELOPMENT_SETS = {"echoes"}


def echo(path, seed):
    """Adds a tape echo to the WAV at `path` (16-bit, in place), its settings drawn from `seed`: the dry
    signal plus repeats every `delay` s, each `feedback` times the one before and through one more
    one-pole low-pass (the tape's loss of highs), read from a delay line whose length wobbles
    sinusoidally (the tape's wow, ±`wow` s of delay at `rate` Hz: up to ±3 ¢ of pitch), until a
    repeat is 40 dB under the dry signal."""
    rng = random.Random(seed)
    delay, feedback = rng.uniform(0.25, 0.6), rng.uniform(0.35, 0.6)
    cutoff, rate = rng.uniform(2500.0, 5000.0), rng.uniform(0.5, 1.5)
    # A delay wobbling by ±wow s at `rate` Hz moves the pitch by up to ±2π·rate·wow (relative): ±3 ¢ at most.
    wow = rng.uniform(0.0, (3 * math.log(2) / 1200) / (2 * math.pi * rate))
    with wave.open(path) as w:
        channels, fs, frames = w.getnchannels(), w.getframerate(), w.readframes(w.getnframes())
    pcm = array.array("h", frames)
    dry = [sum(pcm[k * channels + c] for c in range(channels)) / channels for k in range(len(pcm) // channels)]
    repeats = max(1, math.ceil(math.log(0.01) / math.log(feedback)))
    n = len(dry) + int(math.ceil((repeats * delay + 0.05) * fs))
    out = dry + [0.0] * (n - len(dry))
    alpha = 1 - math.exp(-2 * math.pi * cutoff / fs)
    tap = dry
    for r in range(1, repeats + 1):
        lp, y = 0.0, []
        for x in tap:  # one more low-pass per repeat
            lp += alpha * (x - lp)
            y.append(lp)
        tap = [0.0] * n
        for k in range(n):
            at = k - (delay + wow * math.sin(2 * math.pi * rate * k / fs)) * fs
            i = int(math.floor(at))
            if 0 <= i < len(y) - 1:
                frac = at - i
                tap[k] = feedback * (y[i] + frac * (y[i + 1] - y[i]))
        for k in range(n):
            out[k] += tap[k]
    peak = max(1.0, max(abs(v) for v in out) / 32000)
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(fs)
        w.writeframes(array.array("h", (int(round(v / peak)) for v in out)).tobytes())


def render(tmp, name, program, events, end):
    mid = os.path.join(tmp, name + ".mid")
    wav = os.path.join(tmp, name + ".wav")
    write_midi(mid, program, events, end)
    subprocess.run(["fluidsynth", "-ni", "-q", "-R", "0", "-C", "0", "-g", "0.5", "-r", "48000",
                    "-T", "wav", "-F", wav, SOUNDFONT, mid],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return wav


# ---------------------------------------------------------------- scoring

def announce(tuner, path):
    out = subprocess.run([tuner, "--file", path, "--announce"], capture_output=True, text=True, timeout=300)
    if out.returncode != 0:
        raise SystemExit(f"Error: {tuner} --file {path} --announce exited {out.returncode}: {out.stderr.strip()}")
    return [line for line in out.stdout.splitlines() if line.strip()]


def judge(lines, nominal):
    """(wrong octave, wrong note) counts among the lines, against the nominal MIDI note."""
    octave = other = 0
    for line in lines:
        heard = parse_note(re.split(r"[, ]", line, 1)[0])
        if heard is None or heard == nominal:
            continue
        if heard % 12 == nominal % 12:
            octave += 1
        else:
            other += 1
    return octave, other


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tuner", default=os.path.join(ROOT, ".build", "release", "tuner"))
    ap.add_argument("--recordings", default=None)
    ap.add_argument("--sets", default="public,holdout,renders,sequences,echoes",
                    help="comma-separated sets to run (public, holdout, renders, sequences, echoes)")
    args = ap.parse_args()
    sets = set(args.sets.split(","))
    if not os.access(args.tuner, os.X_OK):
        raise SystemExit(f"Error: no tuner at {args.tuner}; build it with 'swift build -c release' or pass --tuner")
    rec = args.recordings
    if rec is None:
        rec = os.path.join(ROOT, "Recordings", "real")
        if not os.path.exists(os.path.join(rec, "manifest.tsv")):
            rec = os.path.join(ROOT, "..", "shared", "real-recordings")

    totals = {}

    def score(group, name, lines, nominal, expected):
        octave, other = judge(lines, nominal)
        t = totals.setdefault(group, {"files": 0, "exact": 0, "never": 0, "lines": 0, "octave": 0, "other": 0})
        t["files"] += 1
        t["exact"] += len(lines) == expected
        t["never"] += len(lines) == 0
        t["lines"] += len(lines)
        t["octave"] += octave
        t["other"] += other
        verdict = "ok" if len(lines) == expected and octave == 0 else "MISS"
        print(f"{group:9s} {name:44s} {note_name(nominal):4s} want {expected}  got {len(lines)}  {verdict:4s}  "
              + " | ".join(lines))

    if sets & {"public", "holdout"}:
        manifest = os.path.join(rec, "manifest.tsv")
        if not os.path.exists(manifest):
            raise SystemExit(f"Error: no manifest.tsv in {rec}; pass --recordings DIR")
        with open(manifest) as fh:
            rows = [line.rstrip("\n").split("\t") for line in fh][1:]
        for row in sorted(rows):
            group = "public" if row[0] in PUBLIC else "holdout"
            if group in sets:
                score(group, row[0], announce(args.tuner, os.path.join(rec, row[0])), parse_note(row[2]), 1)
    if sets & {"renders", "sequences", "echoes"}:
        if not os.path.exists(SOUNDFONT):
            raise SystemExit(f"Error: no soundfont at {SOUNDFONT}; apt-get install fluidsynth fluid-soundfont-gm")
        with tempfile.TemporaryDirectory() as tmp:
            if "renders" in sets:
                for name, prog, m, held in SINGLE:
                    wav = render(tmp, name, prog, [note_on(0.0, m), note_off(held, m)], held + 1.5)
                    score("renders", name, announce(args.tuner, wav), m, 1)
            if "sequences" in sets:
                for name, prog, m, evs, end, expected in SEQUENCES:
                    wav = render(tmp, name, prog, evs, end + 1.0)
                    score("sequences", name, announce(args.tuner, wav), m, expected)
            if "echoes" in sets:
                for name, prog, m, plucks, seed, expected in ECHOES:
                    evs = []
                    for t in plucks:
                        evs += [note_on(t, m), note_off(t + 1.9, m)]
                    wav = render(tmp, name, prog, evs, plucks[-1] + 2.5)
                    echo(wav, seed)
                    score("echoes", name, announce(args.tuner, wav), m, expected)

    print()
    print("| set | files | exactly the expected events (target ≥ 95 %; sequences 100 %) | never announced (≤ 2 %) "
          "| wrong octave (0) | wrong note | lines | verdict |")
    print("|---|---|---|---|---|---|---|---|")
    passed = True
    for group in ["public", "holdout", "renders", "sequences", "echoes"]:
        t = totals.get(group)
        if not t:
            continue
        exact = 100 * t["exact"] / t["files"]
        never = 100 * t["never"] / t["files"]
        target = 100 if group == "sequences" else 95
        ok = exact >= target and never <= 2 and t["octave"] == 0
        if group in DEVELOPMENT_SETS:  # measured against the same bar, but not one of the targets
            verdict = "report (would pass)" if ok else "report (would FAIL)"
        else:
            passed &= ok
            verdict = "pass" if ok else "FAIL"
        print(f"| {group} | {t['files']} | {t['exact']} ({exact:.0f} %) | {t['never']} ({never:.0f} %) "
              f"| {t['octave']} | {t['other']} | {t['lines']} | {verdict} |")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
