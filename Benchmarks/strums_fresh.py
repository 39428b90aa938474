"""Development draws in neither part of `strums.py` (issue 15, stop 33): fresh strums to check a change on
before the holdout is scored, so a change that only fits the tuning part shows without looking at the
holdout. Built once into `Benchmarks/out/fresh/` (soundfont renders and WAVs; delete it to rebuild):

- FluidR3 strums, seeds 500–529 (±30 cents) and 600–619 (near in tune, ±4 cents);
- TimGM6mb and MuseScore General Lite strums, seeds 500–509 (±30 cents);
- the other-tunings generator, seeds 60–67 on every preset, and with one or two strings muted, seeds
  400–405 (strums.py's parts use 0–11 / 100–103 and 200–205 / 300–301; the fixtures, 20).

The soundfont truth is each render's reading by `--truth BIN` (default: the first `--ours`), the same for
every binary compared. Printed per set and binary: sounding string-hops not heard, the p95 and median of
the per-string error (a miss counts as infinite, as in strums.py), readings over 10 cents off, and muted
strings reported; `--per-file`, the strums on which the binaries differ; `--by-string`, for the first binary,
each soundfont string's steady part in the strum against the same string's own signal read alone (see
by_string); `--miss-map`, per set and binary,
the sounding string-hops not heard by string and by how far each string's 1st partial lies from the
nearest partial of another string (harmonic series of the truth: under 3 Hz it is one peak with it in
either frame length, 3–8 Hz one peak in the 0.25 s frames; BENCHMARKS.md, "Stop 34").

    Benchmarks/out/venv/bin/python Benchmarks/strums_fresh.py --ours BIN [--ours BIN2 …] [--per-file]
"""

import argparse
import os
import pickle
import sys
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import numpy as np  # noqa: E402
import strums  # noqa: E402

OUT = os.path.join(HERE, "out", "fresh")
SOUNDFONT_SETS = [("FluidR3 fresh", "fluidr3", range(500, 530), strums.DETUNE_CENTS),
                  ("FluidR3 near in tune fresh", "fluidr3", range(600, 620), strums.NEAR_IN_TUNE_CENTS),
                  ("TimGM6mb fresh", "timgm6mb", range(500, 510), strums.DETUNE_CENTS),
                  ("MuseScore fresh", "msgeneral", range(500, 510), strums.DETUNE_CENTS)]
OTHER_SEEDS, MUTED_SEEDS = range(60, 68), range(400, 406)


def build(truth_binary):
    """(set, file, truth, strum, levels, preset, targets) for every fresh strum, written under OUT."""
    os.makedirs(OUT, exist_ok=True)
    cache = os.path.join(OUT, "jobs.pkl")
    if os.path.exists(cache):
        with open(cache, "rb") as f:
            return pickle.load(f)
    jobs, fonts = [], {}
    for label, font, seeds, spread in SOUNDFONT_SETS:
        if font not in fonts:
            renders = strums.soundfont_strings(OUT, font)
            fonts[font] = (renders, {p: [strums.reference(truth_binary, renders[p][i], OUT, f"ref{font}{p}_{i}.wav")
                                         for i in range(6)] for p in renders})
        for seed in seeds:
            x, truth, strum, levels = strums.soundfont(seed, *fonts[font], font, [], spread)
            name = f"f{font}{seed}.wav"
            strums.write_wav(os.path.join(OUT, name), x)
            jobs.append((label, name, truth, strum, levels, "guitar", None))
    for preset, targets in strums.other_tunings(truth_binary).items():
        for label, seeds, muted in (("other tunings fresh", OTHER_SEEDS, False), ("muted other tunings fresh", MUTED_SEEDS, True)):
            for seed in seeds:
                x, truth, strum, levels = strums.synthetic(seed, 40, muted=1 + seed % 2 if muted else 0, targets=targets)
                name = f"{'u' if muted else 't'}{preset}{seed}.wav"
                strums.write_wav(os.path.join(OUT, name), x)
                jobs.append((label, name, truth, strum, levels, preset, targets))
    with open(cache, "wb") as f:
        pickle.dump(jobs, f)
    return jobs


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ours", action="append", required=True, help="a tuner binary (repeat to compare)")
    ap.add_argument("--truth", help="the binary whose readings of each render are the soundfont truth")
    ap.add_argument("--per-file", action="store_true", help="print the strums on which the binaries differ")
    ap.add_argument("--miss-map", action="store_true",
                    help="print where the misses are: by string, and by the 1st partial's distance from others'")
    ap.add_argument("--by-string", action="store_true",
                    help="print, for the first binary, each soundfont string in the strum against itself read alone")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args(argv)
    jobs = build(args.truth or args.ours[0])
    if args.by_string:
        by_string(args.ours[0], jobs, args.jobs)
        return

    def one(task):
        binary, (label, name, truth, strum, levels, preset, targets) = task
        hops, _, _ = strums.run(binary, os.path.join(OUT, name), preset)
        errors, muted_total, muted_reported, _, _, _ = strums.score(hops, truth, strum, levels, targets)
        missed = strums.missed_by_string(hops, truth, strum, levels)
        return binary, label, name, np.array(errors), muted_total, muted_reported, missed, truth

    with ThreadPoolExecutor(args.jobs) as ex:
        results = list(ex.map(one, [(b, j) for b in args.ours for j in jobs]))
    for label in dict.fromkeys(j[0] for j in jobs):
        for binary in args.ours:
            rs = [r for r in results if r[0] == binary and r[1] == label]
            e = np.concatenate([r[3] for r in rs])
            finite = e[np.isfinite(e)]
            muted_total, muted_reported = sum(r[4] for r in rs), sum(r[5] for r in rs)
            muted = f", muted reported {100 * muted_reported / muted_total:.2f} %" if muted_total else ""
            print(f"{label} ({len(rs)} strums), {binary}: not heard {100 * np.mean(~np.isfinite(e)):.2f} %, "
                  f"p95 {np.percentile(e, 95, method='higher'):.3f} ¢, median {np.median(e):.3f} ¢, "
                  f"over 10 ¢ off {int(np.sum(finite > strums.WRONG_CENTS))}{muted}")
    if args.miss_map:
        for label in dict.fromkeys(j[0] for j in jobs):
            for binary in args.ours:
                print(f"{label}, {binary}: " + miss_map([r for r in results if r[0] == binary and r[1] == label]))
    if args.per_file:
        for name in dict.fromkeys(r[2] for r in results):
            cells = []
            for binary in args.ours:
                r = next(x for x in results if x[0] == binary and x[2] == name)
                cells.append(f"not heard {100 * np.mean(~np.isfinite(r[3])):.1f} %, muted reported {r[5]}")
            if len(set(cells)) > 1:
                print(name, " | ".join(cells))


def by_string(binary, jobs, workers):
    """Where the soundfont strums' errors are, string by string. Each string's own signal, as placed in
    its strum (strums.soundfont's `placed`; the same render, detune, offset and level), is written under
    OUT once and read alone by `binary`. For every (strum, string): the steady part's sounding string-hops
    (strums.STEADY_AFTER, strums.sounding_at), those not heard and those read over 3 ¢ off the truth in
    the strum, and the median cents against the truth in the strum and alone. Printed: the totals by set,
    instrument (strums.PROGRAMS) and string, then the 20 (strum, string) pairs with the most string-hops
    off. A string whose median alone is near the truth but off in the strum is moved by the other
    strings; one off alone is off in its render (a glide, an irregular series)."""
    placed_by_name = {}
    for label, font, seeds, spread in SOUNDFONT_SETS:
        renders = strums.soundfont_strings(OUT, font)
        ones = {p: [1.0] * 6 for p in renders}  # the truth is not needed here, only the placed signals
        for seed in seeds:
            name = f"f{font}{seed}.wav"
            paths = [os.path.join(OUT, f"alone_{font}{seed}_{i}.wav") for i in range(6)]
            if not all(os.path.exists(q) for q in paths):
                placed = []
                strums.soundfont(seed, renders, ones, font, placed, spread)
                for q, y in zip(paths, placed):
                    strums.write_wav(q, y)
            placed_by_name[name] = (label, strums.PROGRAMS[seed % len(strums.PROGRAMS)][1], paths)
    names = strums.guitar_names()

    def one(job):
        _, name, truth, strum, levels, preset, _ = job
        label, instrument, paths = placed_by_name[name]
        hops, _, _ = strums.run(binary, os.path.join(OUT, name), preset)
        rows = []
        for i, f in enumerate(truth):
            alone, _, _ = strums.run(binary, paths[i], preset)
            by_time = {round(h["time"], 4): h["strings"][i] for h in alone}
            n = missed = off = 0
            in_strum, by_itself = [], []
            for h in hops:
                t = h["time"]
                if t < strum + strums.STEADY_AFTER or not strums.sounding_at(levels[i], t):
                    continue
                n += 1
                a = by_time.get(round(t, 4))
                if a is not None:
                    by_itself.append(1200 * np.log2(a["frequency"] / f))
                s = h["strings"][i]
                if s is None:
                    missed += 1
                    continue
                c = 1200 * np.log2(s["frequency"] / f)
                in_strum.append(c)
                off += abs(c) > 3
            median = lambda v: float(np.median(v)) if v else float("nan")
            rows.append((label, instrument, names[i], name, n, missed, off, median(in_strum), median(by_itself)))
        return rows

    with ThreadPoolExecutor(workers) as ex:
        rows = [r for rs in ex.map(one, [j for j in jobs if j[1] in placed_by_name]) for r in rs]
    total = sum(r[4] for r in rows)
    bad = sum(r[5] + r[6] for r in rows)
    print(f"{binary}: {bad} of {total} sounding string-hops not heard or over 3 ¢ off ({100 * bad / max(total, 1):.2f} %)")
    print("| set | instrument | string | string-hops | not heard | over 3 ¢ off |")
    print("|---|---|---|---|---|---|")
    groups = {}
    for r in rows:
        g = groups.setdefault(r[:3], [0, 0, 0])
        for k in range(3):
            g[k] += r[4 + k]
    for (label, instrument, string), (n, missed, off) in groups.items():
        print(f"| {label} | {instrument} | {string} | {n} | {missed} | {off} |")
    print("\n| strum | string | string-hops | not heard | over 3 ¢ off | median in the strum | median alone |")
    print("|---|---|---|---|---|---|---|")
    for r in sorted(rows, key=lambda r: -(r[5] + r[6]))[:20]:
        print(f"| {r[3]} | {r[2]} | {r[4]} | {r[5]} | {r[6]} | {r[7]:+.2f} ¢ | {r[8]:+.2f} ¢ |")


# The 1st partial's distance from the nearest partial of another string (Hz): one peak with it in either
# frame length under the first, in the 0.25 s frames under the second (their collision distances: 6 and
# 12 Hz, StrumPass.cpp's kCollisionBins; a weak partial merges farther out on a strong one's main lobe).
MISS_MAP_BANDS_HZ = (3.0, 8.0)


def first_partial_apart(truth, i):
    """How far string i's 1st partial lies from the nearest partial (1…39) of another sounding string (Hz)."""
    return min(abs(truth[i] - m * f) for q, f in enumerate(truth) if q != i and f for m in range(1, 40))


def miss_map(rs):
    """One line: sounding string-hops not heard / sounding, by string, and by first_partial_apart's band."""
    low, high = MISS_MAP_BANDS_HZ
    by_string, by_band = {}, {f"under {low:g} Hz": (0, 0), f"{low:g}–{high:g} Hz": (0, 0), f"{high:g} Hz or more": (0, 0)}
    for r in rs:
        missed, truth = r[6], r[7]
        for i, m in enumerate(missed):
            if m is None:
                continue
            apart = first_partial_apart(truth, i)
            band = f"under {low:g} Hz" if apart < low else f"{low:g}–{high:g} Hz" if apart < high else f"{high:g} Hz or more"
            for table, key in ((by_string, i + 1), (by_band, band)):
                a, b = table.get(key, (0, 0))
                table[key] = (a + m[0], b + m[1])
    cells = lambda t: ", ".join(f"{k} {a}/{b}" for k, (a, b) in t.items())
    return f"not heard by string: {cells(dict(sorted(by_string.items())))}; by the 1st partial's distance from others': {cells(by_band)}"


if __name__ == "__main__":
    main()
