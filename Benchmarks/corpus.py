"""Builds the benchmark corpus: WAV files plus `manifest.json` holding the truth for each file.

Everything is derived from one seed, so the same seed gives the same files on every machine
(FluidSynth renders are deterministic with reverb, chorus and dither off and float output).

Truth model per file:
  segments: [{start, end, f1, steady_start, ...}]  the first-partial frequency f1 (Hz) is exact for
            synthetic material; for instrument renders `f1` is the nominal note and the scoring uses
            the relative truth (see metrics.py).
  gaps:     [{start, end}]  stretches with no note (noise floor only).

Public and holdout parts (the rule, written once here and in BENCHMARKS.md): every instrument render
made from a soundfont other than PUBLIC_SOUNDFONT (FluidR3 GM) is **holdout**; everything else —
synthetic tones, sequences, FluidR3 renders, the real recordings — is public. Engine work may look at
the public part; the holdout is only scored (`part_of`). The holdout renders the same programs and
notes as the public part, so the two are comparable.
"""

import json
import math
import os
import struct
import subprocess
import tempfile
import warnings

import numpy as np
from scipy.io import wavfile
from scipy import signal as sps

CORPUS_VERSION = 6  # bump when the generator changes, so a cached corpus is rebuilt
SOUNDFONT = "/usr/share/sounds/sf2/FluidR3_GM.sf2"
# Soundfonts: (key, name, path, Debian package). The first is the public one; the others are holdout.
SOUNDFONTS = [
    ("fluidr3", "FluidR3 GM", SOUNDFONT, "fluid-soundfont-gm"),
    ("timgm6mb", "TimGM6mb", "/usr/share/sounds/sf2/TimGM6mb.sf2", "timgm6mb-soundfont"),
    ("msgeneral", "MuseScore General Lite", "/usr/share/sounds/sf3/MuseScore_General_Lite.sf3",
     "musescore-general-soundfont-small"),
]
PUBLIC_SOUNDFONT = "fluidr3"
REAL_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Recordings", "real")

NOTE_NAMES = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"]

# Synthetic range: B0 (MIDI 23) … E6 (MIDI 88).
SYNTH_LOW, SYNTH_HIGH = 23, 88
SYNTH_SECONDS = 1.0
STEADY_AFTER = 0.3            # seconds after an onset where the steady part starts
SNRS = [None, 40, 20, 10, 0]  # None = clean
SIGNAL_PEAK = 0.25            # −12 dBFS, so 0 dB SNR noise still stays well inside ±1

# Instruments: (GM program 0-based, name, open strings as MIDI notes)
GUITAR = [40, 45, 50, 55, 59, 64]
BASS = [28, 33, 38, 43]
VIOLIN = [55, 62, 69, 76]
INSTRUMENTS = [
    (24, "nylon guitar", GUITAR), (25, "steel guitar", GUITAR), (26, "jazz guitar", GUITAR),
    (27, "clean guitar", GUITAR), (29, "overdriven guitar", GUITAR), (30, "distortion guitar", GUITAR),
    (32, "acoustic bass", BASS), (33, "finger bass", BASS), (34, "pick bass", BASS),
    (40, "violin", VIOLIN),
]
DETUNES = [0.0, -30.0, -10.0, -3.0, 3.0, 10.0, 30.0]
RENDER_RATE = 44100
NOTE_HOLD = 1.5      # seconds the key is held
NOTE_SLOT = 2.5      # seconds between note-ons in the render (release tail fits inside)
NOTE_KEEP = 1.7      # seconds kept per note (the key is released at 1.5 s)
INSTR_STEADY = (0.3, 1.4)

# The widened set (issue 13): notes the issue-4 open strings leave out, each rendered with its own key
# hold. (program, MIDI notes); the holds cycle through WIDE_HOLDS over the whole list, in order.
WIDE_NOTES = [
    (32, [23]), (33, [23]), (34, [23]),                 # B0, a five-string bass's low string
    (40, [59, 64, 73, 77, 78, 79, 80, 81]),             # violin B3 (G string), E4 (D), C#5 (A), F5 … A5 (E)
    (29, [42, 47, 52, 57, 61, 66]),                     # overdriven guitar, 2nd fret of every string
    (30, [42, 47, 52, 57, 61, 66]),                     # distortion guitar, 2nd fret of every string
]
WIDE_HOLDS = [0.5, 1.0, 2.0, 3.0, 0.8, 1.5]           # seconds the key is held
WIDE_RELEASE = 1.0                                     # seconds between key release and the next note-on
STEADY_BEFORE_RELEASE = 0.1                            # a render's steady part ends this long before the release

SEQ_RATE = 48000
NOISE_FLOOR_DBFS = -70.0  # RMS of the white noise under the sequences (silent gaps are not digital zero)


def midi_to_hz(m):
    return 440.0 * 2.0 ** ((m - 69.0) / 12.0)


def note_label(m):
    return f"{NOTE_NAMES[m % 12]}{m // 12 - 1}"


def write_wav(path, x, fs):
    wavfile.write(path, fs, np.asarray(x, dtype=np.float32))


# ---------------------------------------------------------------- synthetic tones

def sine(f1, n, fs, rng):
    t = np.arange(n) / fs
    ramp = np.minimum(1.0, np.arange(n) / (0.002 * fs))
    return SIGNAL_PEAK * ramp * np.sin(2 * np.pi * f1 * t + rng.uniform(0, 2 * np.pi))


def pluck(f1, n, fs, rng, B, missing_fundamental=False):
    """Decaying partials k·f1·sqrt((1+B k²)/(1+B)); the first partial is exactly f1."""
    t = np.arange(n) / fs
    pos = rng.uniform(0.1, 0.3)            # pluck position along the string
    tau1 = rng.uniform(1.0, 3.0)           # decay of the fundamental (1/e), seconds
    out = np.zeros(n)
    for k in range(1, 41):
        fk = k * f1 * math.sqrt((1 + B * k * k) / (1 + B))
        if fk >= 0.45 * fs or fk > 10000:
            break
        if k == 1 and missing_fundamental:
            continue
        a = abs(math.sin(math.pi * k * pos)) / k
        tau = tau1 / (1 + 0.4 * (k - 1))
        out += a * np.exp(-t / tau) * np.sin(2 * np.pi * fk * t + rng.uniform(0, 2 * np.pi))
    out *= np.minimum(1.0, np.arange(n) / (0.001 * fs))
    return SIGNAL_PEAK * out / np.max(np.abs(out))


def add_noise(x, snr_db, fs, rng, measure_from):
    """White noise at `snr_db` relative to the signal power over [measure_from, end)."""
    i0 = int(measure_from * fs)
    p = float(np.mean(x[i0:] ** 2))
    sigma = math.sqrt(p / 10 ** (snr_db / 10))
    return x + rng.normal(0.0, sigma, len(x)), sigma


def build_synthetic(root, rng, files):
    n_notes = SYNTH_HIGH - SYNTH_LOW + 1
    for tone in ("sine", "pluck"):
        for m in range(SYNTH_LOW, SYNTH_HIGH + 1):
            # Each note appears at both rates: sines at 44.1 kHz on even notes, plucks on odd ones.
            fs = 44100 if (m % 2 == 0) == (tone == "sine") else 48000
            detune = rng.uniform(-40, 40)
            f1 = midi_to_hz(m + detune / 100.0)
            B = 10 ** rng.uniform(-5, -4)
            n = int(SYNTH_SECONDS * fs)
            clean = sine(f1, n, fs, rng) if tone == "sine" else pluck(f1, n, fs, rng, B)
            for snr in SNRS:
                if snr is None:
                    x, sigma = clean, 0.0
                else:
                    x, sigma = add_noise(clean, snr, fs, rng, STEADY_AFTER)
                name = f"synth/{tone}_{note_label(m)}_{fs // 1000}k_{'clean' if snr is None else f'{snr}dB'}.wav"
                write_wav(os.path.join(root, name), x, fs)
                files.append({
                    "file": name, "set": "synthetic", "tone": tone, "midi": m, "fs": fs, "snr": snr,
                    "noise_sigma": sigma, "amplitude": SIGNAL_PEAK if tone == "sine" else None,
                    "inharmonicity": B if tone == "pluck" else 0.0, "detune_cents": detune,
                    "duration": n / fs,
                    "segments": [{"start": 0.0, "end": n / fs, "f1": f1, "steady_start": STEADY_AFTER}],
                    "gaps": [],
                })
    assert len(files) == 2 * n_notes * len(SNRS)


def build_missing_fundamental(root, rng, files):
    for m in range(40, 77, 3):  # E2 … E5
        fs = 44100 if m % 2 == 0 else 48000
        detune = rng.uniform(-40, 40)
        f1 = midi_to_hz(m + detune / 100.0)
        B = 10 ** rng.uniform(-5, -4)
        n = int(SYNTH_SECONDS * fs)
        clean = pluck(f1, n, fs, rng, B, missing_fundamental=True)
        for snr in (None, 20):
            x, sigma = (clean, 0.0) if snr is None else add_noise(clean, snr, fs, rng, STEADY_AFTER)
            name = f"missing/pluck_{note_label(m)}_{fs // 1000}k_{'clean' if snr is None else f'{snr}dB'}.wav"
            write_wav(os.path.join(root, name), x, fs)
            files.append({
                "file": name, "set": "missing", "tone": "missing-fundamental pluck", "midi": m, "fs": fs,
                "snr": snr, "noise_sigma": sigma, "inharmonicity": B, "detune_cents": detune,
                "duration": n / fs,
                "segments": [{"start": 0.0, "end": n / fs, "f1": f1, "steady_start": STEADY_AFTER}],
                "gaps": [],
            })


# ---------------------------------------------------------------- instrument renders

def _vlq(v):
    out = [v & 0x7F]
    v >>= 7
    while v:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    return bytes(reversed(out))


def note_starts(holds, slot=None):
    """Note-on times (s): a fixed `slot` apart, or each after the previous hold plus WIDE_RELEASE."""
    if slot is not None:
        return [i * slot for i in range(len(holds))], len(holds) * slot
    starts, t = [], 0.0
    for h in holds:
        starts.append(t)
        t += h + WIDE_RELEASE
    return starts, t


def write_midi(path, program, notes, holds=None):
    """A one-track SMF: 960 ticks per second (division 480, tempo 500 000 µs per quarter).

    Without `holds`, every key is held NOTE_HOLD and notes are NOTE_SLOT apart (the issue-4 set)."""
    fixed = holds is None
    holds = [NOTE_HOLD] * len(notes) if fixed else holds
    starts, total = note_starts(holds, NOTE_SLOT if fixed else None)
    events = []  # (tick, bytes)
    events.append((0, bytes([0xC0, program])))
    for m, t, h in zip(notes, starts, holds):
        on = round(t * 960)
        off = round((t + h) * 960)
        events.append((on, bytes([0x90, m, 100])))
        events.append((off, bytes([0x80, m, 0])))
    end = round(total * 960)
    events.sort(key=lambda e: e[0])
    track = bytearray(b"\x00\xFF\x51\x03\x07\xA1\x20")  # tempo 500 000
    last = 0
    for tick, data in events:
        track += _vlq(tick - last) + data
        last = tick
    track += _vlq(end - last) + b"\xFF\x2F\x00"
    with open(path, "wb") as fh:
        fh.write(b"MThd" + struct.pack(">IHHH", 6, 0, 1, 480))
        fh.write(b"MTrk" + struct.pack(">I", len(track)) + bytes(track))


def render(program, notes, tmp, soundfont=SOUNDFONT, holds=None):
    mid = os.path.join(tmp, f"p{program}.mid")
    wav = os.path.join(tmp, f"p{program}.wav")
    write_midi(mid, program, notes, holds)
    subprocess.run(
        ["fluidsynth", "-ni", "-q", "-R", "0", "-C", "0", "-g", "0.5", "-r", str(RENDER_RATE),
         "-O", "float", "-T", "wav", "-F", wav, soundfont, mid],
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # FluidSynth writes a LIST chunk scipy does not parse
        fs, x = wavfile.read(wav)
    assert fs == RENDER_RATE
    x = x.astype(np.float64)
    return x.mean(axis=1) if x.ndim == 2 else x


def detune_exact(x, cents):
    """Resamples so the pitch rises by `cents`; returns (y, realised cents, time scale).

    Band-limited (FFT) resampling of a signal that starts and ends in silence is exact; the new
    length is an integer, so the realised ratio len(x)/len(y) is what the truth uses.
    """
    if cents == 0:
        return x.copy(), 0.0, 1.0
    ratio = 2 ** (cents / 1200)
    new_len = int(round(len(x) / ratio))
    y = sps.resample(x, new_len)
    realised = 1200 * math.log2(len(x) / new_len)
    return y, realised, new_len / len(x)


def part_of(entry):
    """'holdout' for an instrument render from any soundfont but PUBLIC_SOUNDFONT, else 'public'."""
    if entry["set"] == "instrument" and entry.get("soundfont", PUBLIC_SOUNDFONT) != PUBLIC_SOUNDFONT:
        return "holdout"
    return "public"


def instrument_plan():
    """Every instrument note to render: (soundfont key, program, name, midi, hold, issue4), in order.

    issue4 marks the open strings held 1.5 s, the set the issue-4 targets were defined on; each
    soundfont renders the same plan."""
    names = {p: n for p, n, _ in INSTRUMENTS}
    wide, i = [], 0
    for program, notes in WIDE_NOTES:
        for m in notes:
            wide.append((program, names[program], m, WIDE_HOLDS[i % len(WIDE_HOLDS)]))
            i += 1
    plan = []
    for key, _, _, _ in SOUNDFONTS:
        for program, name, strings in INSTRUMENTS:
            plan += [(key, program, name, m, NOTE_HOLD, True) for m in strings]
        plan += [(key, program, name, m, hold, False) for program, name, m, hold in wide]
    return plan


def instrument_file(key, program, m, hold, issue4, d):
    """Where a render goes: the issue-4 FluidR3 names are unchanged; holdout renders live under holdout/."""
    det = '%+d' % d if d else '0'
    base = f"p{program:02d}_{note_label(m)}" + ("" if issue4 else f"_h{hold:g}") + f"_{det}c.wav"
    if key == PUBLIC_SOUNDFONT:
        return f"instruments/{base}"
    return f"holdout/{key}/{base}"


def _cut(audio, start, hold):
    """One note from a render: note-on … release + 0.2 s, faded out over 50 ms, padded with 50 ms of
    silence on both sides and scaled to SIGNAL_PEAK."""
    keep = hold + (NOTE_KEEP - NOTE_HOLD)
    a = int(round(start * RENDER_RATE))
    x = audio[a:a + int(keep * RENDER_RATE)].copy()
    if len(x) < int(keep * RENDER_RATE):
        x = np.pad(x, (0, int(keep * RENDER_RATE) - len(x)))
    fade = int(0.05 * RENDER_RATE)
    x[-fade:] *= 0.5 * (1 + np.cos(np.linspace(0, np.pi, fade)))
    pad = int(0.05 * RENDER_RATE)
    x = np.concatenate([np.zeros(pad), x, np.zeros(pad)])
    peak = np.max(np.abs(x))
    return (x * (SIGNAL_PEAK / peak) if peak > 0 else x), pad


def build_instruments(root, files, soundfonts=None):
    by_sf = {}
    for key, program, name, m, hold, issue4 in instrument_plan():
        by_sf.setdefault(key, {}).setdefault((program, issue4), []).append((name, m, hold))
    sf_info = {key: (label, path) for key, label, path, _ in SOUNDFONTS}
    with tempfile.TemporaryDirectory() as tmp:
        for key, programs in by_sf.items():
            if soundfonts is not None and key not in soundfonts:
                continue
            label, path = sf_info[key]
            for (program, issue4), notes in programs.items():
                name = notes[0][0]
                midis = [m for _, m, _ in notes]
                holds = [h for _, _, h in notes]
                # The issue-4 set is rendered exactly as before (fixed slots), so its files stay identical.
                audio = render(program, midis, tmp, path, None if issue4 else holds)
                starts, _ = note_starts(holds, NOTE_SLOT if issue4 else None)
                for m, hold, start in zip(midis, holds, starts):
                    x, pad = _cut(audio, start, hold)
                    steady = INSTR_STEADY if issue4 else (INSTR_STEADY[0], hold - STEADY_BEFORE_RELEASE)
                    for d in DETUNES:
                        y, realised, scale = detune_exact(x, d)
                        onset = pad / RENDER_RATE * scale
                        fname = instrument_file(key, program, m, hold, issue4, d)
                        os.makedirs(os.path.dirname(os.path.join(root, fname)), exist_ok=True)
                        write_wav(os.path.join(root, fname), y, RENDER_RATE)
                        group = f"p{program}_{m}" if (issue4 and key == PUBLIC_SOUNDFONT) else \
                            f"{key}_p{program}_{m}_h{hold:g}"
                        entry = {
                            "file": fname, "set": "instrument", "program": program, "instrument": name,
                            "soundfont": key, "soundfont_name": label, "issue4": issue4, "hold": hold,
                            "midi": m, "fs": RENDER_RATE, "detune_nominal": d, "detune_cents": realised,
                            "group": group, "duration": len(y) / RENDER_RATE,
                            "segments": [{"start": onset, "end": onset + hold * scale,
                                          "f1": midi_to_hz(m + realised / 100.0),
                                          "steady_start": onset + steady[0] * scale,
                                          "steady_end": onset + steady[1] * scale}],
                            "gaps": [],
                        }
                        entry["part"] = part_of(entry)
                        files.append(entry)


# ---------------------------------------------------------------- real recordings

# Where a real recording's note is, from its own level (10 ms RMS frames), never from a tracker:
REAL_FRAME = 0.01
REAL_START_DB = 40.0   # the sound starts at the first frame within 40 dB of the loudest one
REAL_END_DB = 35.0     # its steady part ends with the last frame within 35 dB of the loudest one: below
                       # that the pizzicato and ukulele tails sink into the room noise (measured on the
                       # 19 files: their noise floors sit 37–66 dB under the peak)
REAL_STEADY_AFTER = STEADY_AFTER  # the steady part starts 0.3 s after the sound starts, as for synthetic notes


def note_number(name):
    """MIDI number of a note name such as 'C2', 'A#1', 'Eb4'."""
    import re
    mt = re.fullmatch(r"([A-Ga-g])([#b]?)(-?\d+)", name.strip())
    if not mt:
        raise ValueError(f"not a note name: {name!r}")
    pc = {"C": 0, "D": 2, "E": 4, "F": 5, "G": 7, "A": 9, "B": 11}[mt.group(1).upper()]
    pc += {"#": 1, "b": -1, "": 0}[mt.group(2)]
    return pc + 12 * (int(mt.group(3)) + 1)


def real_manifest(directory=REAL_DIR):
    """Rows of Recordings/real/manifest.tsv as dicts."""
    with open(os.path.join(directory, "manifest.tsv")) as fh:
        lines = [ln.rstrip("\n").split("\t") for ln in fh if ln.strip()]
    head = lines[0]
    return [dict(zip(head, row)) for row in lines[1:]]


def real_note_span(x, fs):
    """(start, steady_start, steady_end) in seconds from the level rule above."""
    h = max(1, int(round(REAL_FRAME * fs)))
    n = len(x) // h
    level = 10 * np.log10(np.mean(x[:n * h].reshape(n, h) ** 2, axis=1) + 1e-20)
    peak = level.max()
    idx = np.arange(n)
    start = idx[level >= peak - REAL_START_DB][0] * h / fs
    end = (idx[level >= peak - REAL_END_DB][-1] + 1) * h / fs
    return start, start + REAL_STEADY_AFTER, end


def build_real(root, files, directory=REAL_DIR):
    """The real recordings, mixed to mono float WAV (every tracker reads the same samples)."""
    import soundfile
    os.makedirs(os.path.join(root, "real"), exist_ok=True)
    for row in real_manifest(directory):
        src = os.path.join(directory, row["file"])
        x, fs = soundfile.read(src, always_2d=True, dtype="float64")
        x = x.mean(axis=1)
        start, steady_start, steady_end = real_note_span(x, fs)
        m = note_number(row["nominal_note"])
        fname = "real/" + os.path.splitext(row["file"])[0] + ".wav"
        write_wav(os.path.join(root, fname), x, fs)
        files.append({
            "file": fname, "set": "real", "part": "public", "source": os.path.relpath(src, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")),
            "source_abs": os.path.abspath(src), "instrument": row["instrument"], "nominal": row["nominal_note"],
            "midi": m, "fs": int(fs), "duration": len(x) / fs, "licence": row["license"],
            "segments": [{"start": start, "end": steady_end, "f1": midi_to_hz(m),
                          "steady_start": steady_start, "steady_end": steady_end}],
            "gaps": [],
        })


# ---------------------------------------------------------------- note sequences

def build_sequence(rng, strings, n_notes, fs):
    """Plucked notes on `strings` with re-plucks, string changes and silences; exact truth."""
    segments, gaps, pieces = [], [], []
    t = 0.3
    pieces.append(np.zeros(int(t * fs)))
    gaps.append({"start": 0.0, "end": t})
    tuning = {s: rng.uniform(-40, 40) for s in strings}
    prev, after_gap = None, True
    for i in range(n_notes):
        if prev is not None and rng.uniform() < 0.3:
            s = prev
        else:
            s = strings[rng.integers(len(strings))]
        kind = "after silence" if after_gap else ("re-pluck" if s == prev else "string change")
        after_gap = False
        f1 = midi_to_hz(s + tuning[s] / 100.0)
        dur = rng.uniform(0.8, 1.4)
        n = int(round(dur * fs))
        x = pluck(f1, n, fs, rng, 10 ** rng.uniform(-5, -4))
        damp = int(0.01 * fs)
        x[-damp:] *= np.linspace(1, 0, damp)
        start = sum(len(p) for p in pieces) / fs
        pieces.append(x)
        segments.append({"start": start, "end": start + n / fs, "f1": f1, "midi": int(s), "kind": kind,
                         "steady_start": start + STEADY_AFTER})
        prev = s
        if rng.uniform() < 0.35 or i == n_notes - 1:
            g = rng.uniform(0.7, 1.2)
            gs = start + n / fs
            pieces.append(np.zeros(int(round(g * fs))))
            gaps.append({"start": gs, "end": gs + len(pieces[-1]) / fs})
            after_gap = True
    x = np.concatenate(pieces)
    x = x + rng.normal(0, 10 ** (NOISE_FLOOR_DBFS / 20), len(x))
    return x, segments, gaps


def build_sequences(root, rng, files):
    plan = [("guitar", GUITAR), ("bass", BASS), ("violin", VIOLIN), ("guitar-b", GUITAR),
            ("wide", [23, 35, 47, 52, 57, 62, 67, 71, 76, 81, 88])]
    for name, strings in plan:
        x, segs, gaps = build_sequence(rng, strings, 20, SEQ_RATE)
        fname = f"sequences/{name}.wav"
        write_wav(os.path.join(root, fname), x, SEQ_RATE)
        files.append({"file": fname, "set": "sequence", "fs": SEQ_RATE, "duration": len(x) / SEQ_RATE,
                      "segments": segs, "gaps": gaps})


def build_speed_files(root, rng):
    """A long sequence for CPU per audio second, and a tiny file for process start-up cost."""
    x, _, _ = build_sequence(rng, GUITAR + BASS, 100, SEQ_RATE)
    x = x[: int(120 * SEQ_RATE)] if len(x) > 120 * SEQ_RATE else np.pad(x, (0, int(120 * SEQ_RATE) - len(x)))
    write_wav(os.path.join(root, "speed/long.wav"), x, SEQ_RATE)
    write_wav(os.path.join(root, "speed/tiny.wav"), x[: int(0.05 * SEQ_RATE)], SEQ_RATE)
    return {"long": "speed/long.wav", "long_seconds": len(x) / SEQ_RATE,
            "tiny": "speed/tiny.wav", "tiny_seconds": 0.05}


def build(root, seed):
    manifest_path = os.path.join(root, "manifest.json")
    if os.path.exists(manifest_path):
        with open(manifest_path) as fh:
            old = json.load(fh)
        if old.get("version") == CORPUS_VERSION and old.get("seed") == seed:
            return old
    for sub in ("synth", "missing", "instruments", "holdout", "sequences", "speed", "real"):
        os.makedirs(os.path.join(root, sub), exist_ok=True)
    files = []
    build_synthetic(root, np.random.default_rng([seed, 1]), files)
    build_missing_fundamental(root, np.random.default_rng([seed, 2]), files)
    build_instruments(root, files)
    build_sequences(root, np.random.default_rng([seed, 3]), files)
    speed = build_speed_files(root, np.random.default_rng([seed, 4]))
    build_real(root, files)
    for e in files:
        e.setdefault("part", part_of(e))
    manifest = {"version": CORPUS_VERSION, "seed": seed, "files": files, "speed": speed}
    with open(manifest_path, "w") as fh:
        json.dump(manifest, fh, indent=1)
    return manifest
