"""Why settling to ±1 ¢ takes ~1.9 s on the FluidR3 strums (issue 15, branch strum4): the renders' drift.

Tuning part only (FluidR3 strums of seeds 200–209, built exactly as strums.py builds them; no holdout
strum is read). For each strum, each string's own signal (alone, detuned and placed as in the strum)
is read per hop by the single-string tuner (`tuner --file`, the instrument the truth comes from) and by
`tuner --poly`; the strum itself by `tuner --poly`. Prints, per strum, the median over strums of:
  * drift: the range (gross readings over GROSS_CENTS left out; 5th to 95th percentile, cents) of the single-string reading of each string alone
    over the steady part (from 0.6 s after the strum, while the string is over the gate), the largest
    string's;
  * the settle time of strums.py (every sounding string within ±1 ¢ of its final value, the median of
    its last 0.5 s, for 0.1 s in a row) applied to: (a) the strum read by --poly, as strums.py scores it
    (a string heard but not in its last 0.5 s has no final value and every hop it is read on counts as
    not settled); (a') the same with such strings left out, as the following columns do;
    (b) each string alone read by the single-string tuner (the render's own settling as the truth's
    instrument sees it); (c) each string alone read by --poly;
  * (d) the strum read by --poly, settled when every string reads within ±1 ¢ of the single-string
    reading of that string alone *at the same hop* (a truth that follows the drift).
Then, which sounding string-hops of the steady part the strum's --poly reading misses: by string, by
time after the strum, and by whether the string's 1st and 2nd partials both lie within the collision
distance (COLLISION_HZ) of another string's partial (computed from the true frequencies, harmonic).
Run: Benchmarks/out/venv/bin/python Benchmarks/strum_drift.py --ours .build/release/tuner
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
import corpus  # noqa: E402
import strums  # noqa: E402

FS = strums.FS
TUNING_SEEDS = range(200, 210)  # strums.SOUNDFONT_SETS' FluidR3 tuning set
# PolyAnalyser.cpp's kCollisionBins (3) bins of its 0.25 s frame: partials closer are one peak to it.
COLLISION_HZ = 12.0
GROSS_CENTS = 50.0  # a single-string reading this far from the truth is a gross error, not drift
NAMES = ["E2", "A2", "D3", "G3", "B3", "E4"]


def low_partials_shared(truth, i):
    """Whether string i's 1st and 2nd partials both lie within COLLISION_HZ of another string's."""
    def near(f):
        return any(abs(f - m * truth[j]) < COLLISION_HZ for j in range(6) if j != i for m in range(1, 17))
    return near(truth[i]) and near(2 * truth[i])


def build(seed, renders, refs):
    """strums.soundfont(seed, …, "fluidr3"), also returning each string's placed signal."""
    rng = np.random.default_rng(seed * 31 + 5)
    program = strums.PROGRAMS[seed % len(strums.PROGRAMS)][0]
    cents = rng.uniform(-30, 30, 6)
    starts = strums.offsets(rng)
    n = int(strums.SECONDS * FS)
    x = np.zeros(n)
    parts, truth, levels = [], [], []
    for i in range(6):
        y, realised, _ = corpus.detune_exact(renders[program][i], cents[i])
        y = y * 0.08 * 10 ** (rng.uniform(-3, 3) / 20)
        a = int(starts[i] * FS)
        m = min(n - a, len(y))
        p = np.zeros(n)
        p[a:a + m] = y[:m]
        parts.append(p)
        x += p
        truth.append(refs[program][i] * 2 ** (realised / 1200))
        levels.append(strums.own_level(y, n, a))
    x = strums.add_noise(x, 60, rng, int(starts[0] * FS))
    return x, parts, truth, float(starts[0]), levels


def read(binary, x, path, poly):
    strums.write_wav(path, x)
    args = [binary, "--file", path, "--output", "jsonl"] + (["--poly", "--tuning", "guitar"] if poly else [])
    return [json.loads(l) for l in subprocess.run(args, check=True, capture_output=True, text=True).stdout.splitlines()]


def settle(times, cents, strum, reference=None, as_strums=False):
    """strums.score's held settle time: cents (hops × strings, NaN = no reading); each string's final
    value is the median of its last 0.5 s, or, with `reference` (same shape), the reference at each hop.
    A string with no reading in its last 0.5 s has no final value: left out, or, `as_strums`, as
    strums.score does, every hop it is read on counts as not settled."""
    last = times >= times[-1] - 0.5
    ok = np.ones(len(times), dtype=bool)
    for i in range(cents.shape[1]):
        c = cents[:, i]
        if reference is None:
            if not np.any(~np.isnan(c[last])):
                if as_strums:
                    ok &= np.isnan(c)
                continue
            target = np.full(len(c), np.nanmedian(c[last]))
        else:
            target = reference[:, i]
        good = np.isnan(c) | np.isnan(target) | (np.abs(c - target) <= strums.SETTLE_CENTS)
        heard = np.where(~np.isnan(c))[0]
        if len(heard):
            good[:heard[0]] = False
        ok &= good
    ok &= times >= strum + 0.05
    run = 0
    for j in range(len(times)):
        run = run + 1 if ok[j] else 0
        if run == strums.HOLD_HOPS:
            return times[j - strums.HOLD_HOPS + 1] - strum
    return math.inf


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ours", default=os.path.join(HERE, "..", ".build", "release", "tuner"))
    args = ap.parse_args()
    binary = os.path.abspath(args.ours)
    # The renders and references live in a folder removed at the end.
    with tempfile.TemporaryDirectory(prefix="strum-drift-") as tmp:
        renders = strums.soundfont_strings(tmp, "fluidr3")
        refs = {p: [strums.reference(binary, renders[p][i], tmp, f"ref{p}_{i}.wav") for i in range(6)] for p in renders}
        print("| strum | program | largest drift alone (¢) | (a) strum, --poly (strums.py) | (a') the same, strings without a final value left out | (b) alone, single-string | "
              "(c) alone, --poly | (d) strum vs alone at each hop |")
        print("|---|---|---|---|---|---|---|---|")
        rows = []
        misses = {}  # (string, time bucket, shared) -> [missed, sounding]
        for seed in TUNING_SEEDS:
            x, parts, truth, strum, levels = build(seed, renders, refs)
            hops = read(binary, x, os.path.join(tmp, "x.wav"), True)
            times = np.array([h["time"] for h in hops])
            alive = np.array([[strums.sounding_at(levels[i], t) for i in range(6)] for t in times])
            cents = lambda f, i: 1200 * math.log2(f / truth[i]) if f else np.nan  # noqa: E731
            strum_c = np.array([[cents(h["strings"][i]["frequency"] if h["strings"][i] else None, i) for i in range(6)]
                                for h in hops])
            mono_c = np.full_like(strum_c, np.nan)
            poly_c = np.full_like(strum_c, np.nan)
            for i in range(6):
                mono = {round(h["time"], 4): h["frequency"] for h in read(binary, parts[i], os.path.join(tmp, "m.wav"), False)}
                alone = read(binary, parts[i], os.path.join(tmp, "p.wav"), True)
                for j, t in enumerate(times):
                    mono_c[j, i] = cents(mono.get(round(t, 4)), i)
                    s = alone[j]["strings"][i] if j < len(alone) else None
                    poly_c[j, i] = cents(s["frequency"] if s else None, i)
            for m in (strum_c, mono_c, poly_c):
                m[~alive] = np.nan
            # The single-string tuner reads some steel strings alone a twelfth off on a few hops (its own
            # gross errors, which its median truth ignores): left out here too.
            mono_c[np.abs(mono_c) > GROSS_CENTS] = np.nan
            steady = (times >= strum + strums.STEADY_AFTER)[:, None] & alive
            drift = max(float(np.diff(np.nanpercentile(mono_c[steady[:, i], i], [5, 95]))[0])
                        for i in range(6) if np.any(~np.isnan(mono_c[steady[:, i], i])))
            row = (drift, settle(times, strum_c, strum, as_strums=True), settle(times, strum_c, strum), settle(times, mono_c, strum), settle(times, poly_c, strum),
                   settle(times, strum_c, strum, mono_c))
            rows.append(row)
            for i in range(6):
                shared = low_partials_shared(truth, i)
                for j in np.where(steady[:, i])[0]:
                    t = times[j] - strum
                    bucket = "0.6–1.0 s" if t < 1.0 else "1.0–1.5 s" if t < 1.5 else "≥ 1.5 s"
                    cell = misses.setdefault((NAMES[i], bucket, shared), [0, 0])
                    cell[0] += int(np.isnan(strum_c[j, i]))
                    cell[1] += 1
            program = strums.PROGRAMS[seed % len(strums.PROGRAMS)][1]
            print(f"| {seed} | {program} | {row[0]:.2f} | {row[1]:.3f} | {row[2]:.3f} | {row[3]:.3f} | {row[4]:.3f} | {row[5]:.3f} |")
        med = np.median(np.array(rows), axis=0)
        print(f"| median | | {med[0]:.2f} | {med[1]:.3f} | {med[2]:.3f} | {med[3]:.3f} | {med[4]:.3f} | {med[5]:.3f} |")
        print("\n| string | after the strum | 1st and 2nd partials shared | sounding string-hops | not heard (%) |")
        print("|---|---|---|---|---|")
        total = [0, 0]
        for key in sorted(misses):
            m, n = misses[key]
            total[0] += m
            total[1] += n
            if m:
                print(f"| {key[0]} | {key[1]} | {'yes' if key[2] else 'no'} | {n} | {100.0 * m / n:.1f} |")
        print(f"| all | | | {total[1]} | {100.0 * total[0] / max(1, total[1]):.1f} |")


if __name__ == "__main__":
    main()
