"""Which reading of a soundfont string is right (issue 15, cause (b) of the soundfont strums' misses)?

strums.py's truth for a soundfont string is the single-string tuner's median reading of its render;
`tuner --poly` reads each string of a strum by its own stiff-string fit. On FluidR3's steel E2 the two
disagreed by ~1 ¢. This script measures each string's render alone, three ways, all on the public
FluidR3 soundfont (the tuning part's renders; no holdout font is read):
  * fit: a long, high-resolution fit — the steady part (0.3–1.4 s, the key is released at 1.5 s) in one
    Hann window zero-padded 16×, each partial k ≤ 12 above −60 dB of the strongest located by a
    parabola on the log magnitude, then f_k = k·f0·sqrt(1 + B k²) fitted by weighted least squares
    (weight: magnitude²), reported as f1 = f0·sqrt(1 + B);
  * mono: the single-string tuner's median reading (strums.py's `reference`, the truth);
  * poly: `tuner --poly`'s median reading of that string alone.
Prints each string's mono and poly readings in cents from the fit, and the fit of each half of the
steady part against the whole (the render's own pitch drift: a constant truth cannot be closer than it).
Run: Benchmarks/out/venv/bin/python Benchmarks/strum_offsets.py --ours .build/release/tuner
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import strums  # noqa: E402

STEADY = (0.3, 1.4)
PARTIALS = 12


def fit(x, target, steady=STEADY):
    a, b = int(steady[0] * strums.FS), int(steady[1] * strums.FS)
    seg = x[a:b] * np.hanning(b - a)
    n = 16 * (b - a)
    spec = np.abs(np.fft.rfft(seg, n))
    hz = strums.FS / n
    ks, fs, ws = [], [], []
    strongest = spec.max()
    f_est = target
    for k in range(1, PARTIALS + 1):
        lo, hi = int(k * f_est * 0.985 / hz), int(k * f_est * 1.015 / hz)
        i = lo + int(np.argmax(spec[lo:hi]))
        if spec[i] < strongest * 1e-3 or i in (lo, hi - 1):
            continue
        l, c, r = np.log(spec[i - 1:i + 2])
        f = (i + 0.5 * (l - r) / (l - 2 * c + r)) * hz
        ks.append(k), fs.append(f), ws.append(spec[i] ** 2)
        if k == 1:
            f_est = f
    ks, fs, ws = np.array(ks, float), np.array(fs), np.array(ws)
    best = None
    for B in np.linspace(0, 5e-4, 501):  # f0 closed-form for each B; B by grid
        s = ks * np.sqrt(1 + B * ks ** 2)
        f0 = np.sum(ws * s * fs) / np.sum(ws * s * s)
        err = np.sum(ws * (fs - f0 * s) ** 2)
        if best is None or err < best[0]:
            best = (err, f0, B)
    _, f0, B = best
    return f0 * math.sqrt(1 + B), B, len(ks)


def poly(binary, x, i, tmp):
    path = os.path.join(tmp, f"poly{i}.wav")
    strums.write_wav(path, x * 0.08)
    out = subprocess.run([binary, "--file", path, "--poly", "--tuning", "guitar", "--output", "jsonl"],
                         check=True, capture_output=True, text=True).stdout.splitlines()
    f = [h["strings"][i]["frequency"] for h in map(json.loads, out)
         if h["strings"][i] and STEADY[0] <= h["time"] <= STEADY[1]]
    return float(np.median(f)) if f else math.nan


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ours", default=os.path.join(HERE, "..", ".build", "release", "tuner"))
    binary = os.path.abspath(ap.parse_args().ours)
    # The renders and references live in a folder removed at the end.
    with tempfile.TemporaryDirectory(prefix="strum-offsets-") as tmp:
        renders = strums.soundfont_strings(tmp, "fluidr3")
        print("| program | string | fit f1 (Hz) | B | partials | mono − fit (¢) | poly − fit (¢) "
              "| 1st half − fit (¢) | 2nd half − fit (¢) |")
        print("|---|---|---|---|---|---|---|---|---|")
        mid = sum(STEADY) / 2
        for program, name in strums.PROGRAMS:
            for i, target in enumerate(strums.TARGETS):
                x = renders[program][i]
                f1, B, n = fit(x, target)
                mono = strums.reference(binary, x, tmp, f"mono{program}_{i}.wav")
                p = poly(binary, x, i, tmp)
                halves = [fit(x, target, h)[0] for h in ((STEADY[0], mid), (mid, STEADY[1]))]
                print(f"| {name} | {['E2', 'A2', 'D3', 'G3', 'B3', 'E4'][i]} | {f1:.3f} | {B:.1e} | {n} | "
                      f"{1200 * math.log2(mono / f1):+.2f} | {1200 * math.log2(p / f1):+.2f} | "
                      + " | ".join(f"{1200 * math.log2(h / f1):+.2f}" for h in halves) + " |")


if __name__ == "__main__":
    main()
