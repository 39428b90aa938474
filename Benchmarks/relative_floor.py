"""How much of the instrument relative-detune error comes from where the readings fall, not from the
tracker (informational; not a target).

For each instrument note, the readings of the 0-cent render are taken as the note's pitch curve
(linear between readings). An ideal tracker reading exactly that curve is then "run" on each detuned
render: its readings fall at that render's own reading times, mapped back to the original's time by
the render's length ratio, and read the curve there plus the detune. Its relative detune error
|(m(d) − m(0)) − d| is what sampling a moving pitch (vibrato, a wobbling distorted note) on a
10 ms grid costs by itself, with m the median of the steady readings, as in metrics.relative_detune.

    Benchmarks/out/venv/bin/python Benchmarks/relative_floor.py [readings.pkl] [tracker] [GROUP_SUBSTRING]

It also prints the ideal tracker's p95 per GM program beside the tracker's (issue 13's target is
p95 ≤ 0.3 ¢ per program). With GROUP_SUBSTRING (e.g. `fluidr3_p40_` or `_h0.5`) it also prints, for each PUBLIC note group whose
name contains it, the 0-cent render's steady readings (count, std) and the ideal tracker's and the
tracker's largest and median error: how much of a group's error the grid explains. Holdout groups are
never listed (engine work looks at the public part only).
"""
import json
import os
import pickle
import re
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import corpus  # noqa: E402
import metrics  # noqa: E402


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "out", "readings.pkl")
    tracker = sys.argv[2] if len(sys.argv) > 2 else "ours"
    pattern = sys.argv[3] if len(sys.argv) > 3 else None
    with open(os.path.join(HERE, "corpus", "manifest.json")) as fh:
        manifest = json.load(fh)
    with open(path, "rb") as fh:
        results = pickle.load(fh)["results"][tracker]
    groups = {}
    for e in manifest["files"]:
        if e["set"] == "instrument" and corpus.part_of(e) == "public":  # engine work sees the public part only
            groups.setdefault(e["group"], []).append(e)
    ideal, actual, names = [], [], []
    per_group = []
    for group, members in sorted(groups.items()):
        first_ideal, first_actual = len(ideal), len(actual)
        ref = next(e for e in members if e["detune_cents"] == 0.0)
        t0, f0 = np.array(results[ref["file"]][0]), np.array(results[ref["file"]][1], dtype=float)
        voiced = ~np.isnan(f0)
        t0, c0 = t0[voiced], metrics.cents(f0[voiced], ref["segments"][0]["f1"])  # the pitch curve
        m0 = np.median(metrics.steady(ref, *results[ref["file"]])[0])
        for e in members:
            d = e["detune_cents"]
            if d == 0.0:
                continue
            seg = e["segments"][0]
            t = np.array(results[e["file"]][0])
            t = t[(t >= seg["steady_start"]) & (t <= seg["steady_end"])]
            scale = e["duration"] / ref["duration"]  # the detuned render's length over the original's
            ideal.append(abs(np.median(np.interp(t / scale, t0, c0)) - m0))
            # As metrics.relative_detune, m(d) = median error against the shifted note + d, so
            # (m(d) − m(0)) − d is the difference of the two median errors.
            actual.append(abs(np.median(metrics.steady(e, *results[e["file"]])[0]) - m0))
            names.append(group)
        if pattern and pattern in group and corpus.part_of(ref) == "public":
            s0 = metrics.steady(ref, *results[ref["file"]])[0]
            gi, ga = ideal[first_ideal:], actual[first_actual:]
            per_group.append(f"{group:28s} hold {ref.get('hold')} s: {len(s0)} steady readings, std {np.std(s0):5.2f} ¢; "
                             f"ideal max {max(gi):.2f} ¢, {tracker} max {max(ga):.2f} / median {np.median(ga):.2f} ¢")
    for line in per_group:
        print(line)
    # Per GM program (issue 13's target is per soundfont and program: p95 ≤ 0.3 ¢).
    def program_of(group):  # "p40_76" (the issue-4 set) or "fluidr3_p40_88_h0.5" (the wider corpus)
        m = re.match(r"(?:fluidr3_)?p(\d+)_", group)
        return int(m.group(1)) if m else None
    programs = sorted({program_of(g) for g in names} - {None})
    for program in programs:
        mine = [i for i, g in enumerate(names) if program_of(g) == program]
        gi, ga = np.array([ideal[i] for i in mine]), np.array([actual[i] for i in mine])
        print(f"program {program}: {len(mine)} pairs, ideal tracker p95 {np.nanpercentile(gi, 95):.3f} ¢ (max "
              f"{np.nanmax(gi):.2f}), {tracker} p95 {np.nanpercentile(ga, 95):.3f} ¢ (max {np.nanmax(ga):.2f})")
    for label, values in (("ideal tracker on the same grid", ideal), (tracker, actual)):
        v = np.array(values)
        violin = np.array([x for x, g in zip(values, names) if g.startswith("p40_") or "_p40_" in g])
        print(f"{label}: {len(v)} pairs, median {np.nanmedian(v):.4f} ¢, p95 {np.nanpercentile(v, 95):.4f} ¢, "
              f"{int((v > 0.2).sum())} over 0.2 ¢ (violin: median {np.nanmedian(violin):.3f} ¢, "
              f"{int((violin > 0.2).sum())} of {len(violin)} over 0.2 ¢)")


if __name__ == "__main__":
    main()
