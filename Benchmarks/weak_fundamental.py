#!/usr/bin/env python3
"""Weak-fundamental development set (issue 13, octave errors): public material with the physics of the
real recordings that read an octave off — a fundamental far under its 2nd partial, decaying faster than
the rest, or dipping and coming back — scored like the real recordings (metrics.real_recordings: the
steady part from corpus.real_note_span, octave errors as % of voiced steady readings).

    python Benchmarks/weak_fundamental.py --ours .build/release/tuner [--out DIR] [--jobs N] [--list]

Two parts, both public (nothing here is a holdout file, soundfont or seed):
  synth   deterministic plucks (seed 2613): the fundamental 15, 22 or 30 dB under partial 2 at the pluck,
          fading with its own decay (0.3 s or 1.2 s) or beating through zero and back (two polarisations
          0.6 Hz apart), odd partials 0, 10 or 20 dB under a 1/k series, clean or in −60 dBFS noise;
          G1, A#1, C2, G3, C5 (the notes the issue names).
  fluid   FluidR3 GM renders (the public soundfont) at velocity 40 and 100: pizzicato strings (GM 45),
          acoustic/finger/pick/fretless bass (32–35) on G1, A#1, C2, nylon and steel guitar (24, 25) on
          E2, G3, C5, cello (42, bowed) on C2.
Files are written once into DIR (default Benchmarks/out/weak) and reused; readings are not cached.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import corpus  # noqa: E402
import metrics  # noqa: E402

SEED = 2613            # not a corpus seed (2026) nor a strum seed (0–119)
VERSION = 1            # bump when the generator changes, so DIR is rebuilt
SYNTH_NOTES = ["G1", "A#1", "C2", "G3", "C5"]
SYNTH_SECONDS = 4.0
FUNDAMENTAL_UNDER_SECOND_DB = [15, 22, 30]
ODD_UNDER_DB = [0, 10, 20]
FUNDAMENTAL_SHAPES = ["fast", "slow", "beat"]   # decay 0.3 s, 1.2 s, or beating at 0.6 Hz (dip at 0.83 s)
NOISE_DBFS = [None, -60.0]
FLUID_PROGRAMS = {45: ["G1", "C2", "G2", "C3", "G3"], 32: ["G1", "A#1", "C2"], 33: ["G1", "A#1", "C2"],
                  34: ["G1", "A#1", "C2"], 35: ["G1", "A#1", "C2"], 24: ["E2", "G3", "C5"],
                  25: ["E2", "G3", "C5"], 42: ["C2", "G2"]}
FLUID_VELOCITIES = [40, 100]
FLUID_HOLD = 2.0
FLUID_SLOT = 3.0


def weak_pluck(f1, fs, rng, under_db, odd_db, shape, noise_dbfs):
    """Partials k·f1 (B = 1e-4) with a 1/k series, odd k ≥ 3 `odd_db` lower, partial 1 `under_db` under
    partial 2 at the pluck and shaped by `shape`; partials decay faster the higher they are."""
    n = int(SYNTH_SECONDS * fs)
    t = np.arange(n) / fs
    B = 1e-4
    out = np.zeros(n)
    tau2 = rng.uniform(1.5, 2.5)
    a2 = 0.5
    for k in range(1, 31):
        fk = k * f1 * math.sqrt((1 + B * k * k) / (1 + B))
        if fk >= 0.45 * fs or fk > 10000:
            break
        phase = rng.uniform(0, 2 * np.pi)
        if k == 1:
            a = a2 * 10 ** (-under_db / 20)
            if shape == "beat":  # two polarisations 0.6 Hz apart: the sum dips through zero and comes back
                d = 0.3
                env = 0.5 * np.exp(-t / 2.0)
                out += a * env * (np.sin(2 * np.pi * (fk - d) * t + phase) + np.sin(2 * np.pi * (fk + d) * t + phase))
                continue
            tau = 0.3 if shape == "fast" else 1.2
        else:
            a = 1.0 / k
            if k % 2 == 1:
                a *= 10 ** (-odd_db / 20)
            tau = tau2 / (1 + 0.3 * (k - 2))
        out += a * np.exp(-t / tau) * np.sin(2 * np.pi * fk * t + phase)
    out *= np.minimum(1.0, np.arange(n) / (0.001 * fs))
    out = corpus.SIGNAL_PEAK * out / np.max(np.abs(out))
    if noise_dbfs is not None:
        out = out + rng.normal(0.0, 10 ** (noise_dbfs / 20), n)
    return out


def entry(fname, nominal, x, fs, part, detail):
    start, steady_start, steady_end = corpus.real_note_span(x, fs)
    m = corpus.note_number(nominal)
    return {"file": fname, "set": "weak", "part": "public", "kind": part, "detail": detail, "nominal": nominal,
            "midi": m, "fs": fs,
            "segments": [{"start": start, "end": steady_end, "f1": corpus.midi_to_hz(m),
                          "steady_start": steady_start, "steady_end": steady_end}]}


def write_midi(path, program, notes, velocity):
    events = [(0, bytes([0xC0, program]))]
    for i, m in enumerate(notes):
        events.append((round(i * FLUID_SLOT * 960), bytes([0x90, m, velocity])))
        events.append((round((i * FLUID_SLOT + FLUID_HOLD) * 960), bytes([0x80, m, 0])))
    end = round(len(notes) * FLUID_SLOT * 960)
    track = bytearray(b"\x00\xFF\x51\x03\x07\xA1\x20")
    last = 0
    for tick, data in sorted(events, key=lambda e: e[0]):
        track += corpus._vlq(tick - last) + data
        last = tick
    track += corpus._vlq(end - last) + b"\xFF\x2F\x00"
    import struct
    with open(path, "wb") as fh:
        fh.write(b"MThd" + struct.pack(">IHHH", 6, 0, 1, 480))
        fh.write(b"MTrk" + struct.pack(">I", len(track)) + bytes(track))


def render(program, notes, velocity, tmp):
    from scipy.io import wavfile
    import warnings
    mid, wav = os.path.join(tmp, "w.mid"), os.path.join(tmp, "w.wav")
    write_midi(mid, program, [corpus.note_number(n) for n in notes], velocity)
    subprocess.run(["fluidsynth", "-ni", "-q", "-R", "0", "-C", "0", "-g", "0.5", "-r", str(corpus.RENDER_RATE),
                    "-O", "float", "-T", "wav", "-F", wav, corpus.SOUNDFONT, mid],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fs, x = wavfile.read(wav)
    x = x.astype(np.float64)
    return fs, (x.mean(axis=1) if x.ndim == 2 else x)


def build(root):
    manifest = os.path.join(root, "manifest.json")
    if os.path.exists(manifest):
        with open(manifest) as fh:
            m = json.load(fh)
        if m.get("version") == VERSION:
            return m["files"]
    os.makedirs(root, exist_ok=True)
    rng = np.random.default_rng(SEED)
    files = []
    for note in SYNTH_NOTES:
        for under in FUNDAMENTAL_UNDER_SECOND_DB:
            for odd in ODD_UNDER_DB:
                for shape in FUNDAMENTAL_SHAPES:
                    for noise in NOISE_DBFS:
                        fs = 48000 if len(files) % 2 else 44100
                        x = weak_pluck(corpus.midi_to_hz(corpus.note_number(note)), fs, rng, under, odd, shape, noise)
                        tag = f"{note}_u{under}_o{odd}_{shape}_{'n' if noise else 'c'}"
                        fname = f"synth_{tag}.wav"
                        corpus.write_wav(os.path.join(root, fname), x, fs)
                        files.append(entry(fname, note, x, fs, "synth", tag))
    with tempfile.TemporaryDirectory() as tmp:
        for program, notes in FLUID_PROGRAMS.items():
            for vel in FLUID_VELOCITIES:
                fs, x = render(program, notes, vel, tmp)
                for i, note in enumerate(notes):
                    a = int(i * FLUID_SLOT * fs)
                    y = x[a:a + int((FLUID_HOLD + 0.5) * fs)]
                    if np.max(np.abs(y)) <= 0:
                        continue
                    tag = f"p{program}_{note}_v{vel}"
                    fname = f"fluid_{tag}.wav"
                    corpus.write_wav(os.path.join(root, fname), y, fs)
                    files.append(entry(fname, note, y, fs, "fluid", tag))
    with open(manifest, "w") as fh:
        json.dump({"version": VERSION, "files": files}, fh, indent=1)
    return files


def read(binary, path):
    out = subprocess.run([binary, "--file", path, "--output", "jsonl"], capture_output=True, text=True, check=True)
    t, f = [], []
    for line in out.stdout.splitlines():
        if line.startswith("{"):
            r = json.loads(line)
            t.append(r["time"])
            f.append(r.get("frequency") or math.nan)
    return np.array(t), np.array(f, dtype=float)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ours", required=True)
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "out", "weak"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--list", action="store_true", help="print every file with an octave error")
    args = ap.parse_args()
    files = build(args.out)
    with ThreadPoolExecutor(args.jobs) as ex:
        res = dict(zip([e["file"] for e in files], ex.map(lambda e: read(args.ours, os.path.join(args.out, e["file"])), files)))
    print("## Weak fundamentals (public development set, `Benchmarks/weak_fundamental.py`)\n")
    print("| part | files | right note and octave | octave errors | other notes | unvoiced | files with octave errors | steady readings |")
    print("|---|---|---|---|---|---|---|---|")
    for part in ("synth", "fluid", None):
        sub = [e for e in files if part is None or e["kind"] == part]
        r = metrics.real_recordings(res, sub)
        bad = sum(1 for v in r["per_file"].values() if v["octave"] > 0)
        print(f"| {part or 'all'} | {len(sub)} | {r['right']:.2f} % | {r['octave']:.2f} % | {r['wrong']:.2f} % | "
              f"{r['unvoiced']:.2f} % | {bad} | {r['steady']} |")
    if args.list:
        r = metrics.real_recordings(res, files)
        for e in files:
            v = r["per_file"][e["file"]]
            if v["octave"] > 0 or v["wrong"] > 5:
                print(f"{e['file']}: octave {v['octave']:.1f} % other {v['wrong']:.1f} % unvoiced {v['unvoiced']:.1f} %")


if __name__ == "__main__":
    main()
