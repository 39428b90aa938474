"""Builds the benchmark corpus: WAV files plus `manifest.json` holding the truth for each file.

Everything is derived from one seed, so the same seed gives the same files on every machine
(FluidSynth renders are deterministic with reverb, chorus and dither off and float output).

Truth model per file:
  segments: [{start, end, f1, steady_start, ...}]  the first-partial frequency f1 (Hz) is exact for
            synthetic material; for instrument renders `f1` is the nominal note and the scoring uses
            the relative truth (see metrics.py).
  gaps:     [{start, end}]  stretches with no note (noise floor only).
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

CORPUS_VERSION = 5  # bump when the generator changes, so a cached corpus is rebuilt
SOUNDFONT = "/usr/share/sounds/sf2/FluidR3_GM.sf2"

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


def write_midi(path, program, notes):
    """A one-track SMF: 960 ticks per second (division 480, tempo 500 000 µs per quarter)."""
    events = []  # (tick, bytes)
    events.append((0, bytes([0xC0, program])))
    for i, m in enumerate(notes):
        on = round(i * NOTE_SLOT * 960)
        off = round((i * NOTE_SLOT + NOTE_HOLD) * 960)
        events.append((on, bytes([0x90, m, 100])))
        events.append((off, bytes([0x80, m, 0])))
    end = round(len(notes) * NOTE_SLOT * 960)
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


def render(program, notes, tmp):
    mid = os.path.join(tmp, f"p{program}.mid")
    wav = os.path.join(tmp, f"p{program}.wav")
    write_midi(mid, program, notes)
    subprocess.run(
        ["fluidsynth", "-ni", "-q", "-R", "0", "-C", "0", "-g", "0.5", "-r", str(RENDER_RATE),
         "-O", "float", "-T", "wav", "-F", wav, SOUNDFONT, mid],
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


def build_instruments(root, files):
    with tempfile.TemporaryDirectory() as tmp:
        for program, name, strings in INSTRUMENTS:
            audio = render(program, strings, tmp)
            for i, m in enumerate(strings):
                a = int(round(i * NOTE_SLOT * RENDER_RATE))
                x = audio[a:a + int(NOTE_KEEP * RENDER_RATE)].copy()
                if len(x) < int(NOTE_KEEP * RENDER_RATE):
                    x = np.pad(x, (0, int(NOTE_KEEP * RENDER_RATE) - len(x)))
                fade = int(0.05 * RENDER_RATE)
                x[-fade:] *= 0.5 * (1 + np.cos(np.linspace(0, np.pi, fade)))
                pad = int(0.05 * RENDER_RATE)
                x = np.concatenate([np.zeros(pad), x, np.zeros(pad)])
                peak = np.max(np.abs(x))
                x = x * (SIGNAL_PEAK / peak) if peak > 0 else x
                for d in DETUNES:
                    y, realised, scale = detune_exact(x, d)
                    onset = pad / RENDER_RATE * scale
                    fname = f"instruments/p{program:02d}_{note_label(m)}_{'%+d' % d if d else '0'}c.wav"
                    write_wav(os.path.join(root, fname), y, RENDER_RATE)
                    files.append({
                        "file": fname, "set": "instrument", "program": program, "instrument": name,
                        "midi": m, "fs": RENDER_RATE, "detune_nominal": d, "detune_cents": realised,
                        "group": f"p{program}_{m}", "duration": len(y) / RENDER_RATE,
                        "segments": [{"start": onset, "end": onset + NOTE_HOLD * scale,
                                      "f1": midi_to_hz(m + realised / 100.0),
                                      "steady_start": onset + INSTR_STEADY[0] * scale,
                                      "steady_end": onset + INSTR_STEADY[1] * scale}],
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
    for sub in ("synth", "missing", "instruments", "sequences", "speed"):
        os.makedirs(os.path.join(root, sub), exist_ok=True)
    files = []
    build_synthetic(root, np.random.default_rng([seed, 1]), files)
    build_missing_fundamental(root, np.random.default_rng([seed, 2]), files)
    build_instruments(root, files)
    build_sequences(root, np.random.default_rng([seed, 3]), files)
    speed = build_speed_files(root, np.random.default_rng([seed, 4]))
    manifest = {"version": CORPUS_VERSION, "seed": seed, "files": files, "speed": speed}
    with open(manifest_path, "w") as fh:
        json.dump(manifest, fh, indent=1)
    return manifest
