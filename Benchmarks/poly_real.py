"""`tuner --poly` on the real recordings (issue 15): one string played, the others silent.

Each of `Recordings/real/`'s single notes is read with `--poly --tuning T --output jsonl`, T its
instrument's tuning (guitar, bass for the fretless and the contrabass, cello; the ukulele's GCEA has
strings 200 cents apart, which `--poly` refuses, so those files are left out). The string whose target
lies within the search range (±130 cents) of the nominal note is the one played; there may be none
(a cello C3 is not an open string). Every other string is silent, like a muted string of a strum, and
any reading of one is a false report: the figure is their share of the silent string-hops, from the
first hop to the last, marked PASS or FAIL against the muted-string target of the strums (≤ 1 %).
Beside it, for the played string, the share of hops it is heard on and its median cents (from its own
target). Printed by half (corpus.real_half); the holdout half is only
scored.

    Benchmarks/out/venv/bin/python Benchmarks/poly_real.py --ours BIN [--ours BIN2 …]
"""

import argparse
import json
import math
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import corpus  # noqa: E402

SEARCH_CENTS = 130.0  # PolyAnalyser.cpp, kSearchCents
# Issue 15's target for a muted string of a strum (reported on ≤ 1 % of its hops), held to the silent
# strings of a real single note too: a player plucking one string at a time sees the others flash.
TARGET_PERCENT = 1.0
TUNINGS = {"guitar": ["E2", "A2", "D3", "G3", "B3", "E4"], "bass": ["E1", "A1", "D2", "G2"],
           "cello": ["C2", "G2", "D3", "A3"]}


def tuning_of(instrument):
    """The tuning a player of `instrument` would strum, or None when `--poly` has none for it."""
    for word, tuning in (("ukulele", None), ("cello", "cello"), ("contrabass", "bass"), ("bass", "bass"),
                         ("guitar", "guitar")):
        if word in instrument:
            return tuning
    return None


def score(binary, path, tuning, note):
    targets = [corpus.midi_to_hz(corpus.note_number(n)) for n in TUNINGS[tuning]]
    f = corpus.midi_to_hz(corpus.note_number(note))
    played = [i for i, t in enumerate(targets) if abs(1200 * math.log2(f / t)) <= SEARCH_CENTS]
    out = subprocess.run([binary, "--file", path, "--poly", "--tuning", tuning, "--output", "jsonl"],
                         capture_output=True, text=True, check=True).stdout
    hops = [json.loads(line) for line in out.splitlines()]
    silent = [i for i in range(len(targets)) if i not in played]
    false = sum(1 for h in hops for i in silent if h["strings"][i] is not None)
    cents = sorted(h["strings"][i]["cents"] for h in hops for i in played if h["strings"][i] is not None)
    return {"false": false, "slots": len(hops) * len(silent), "hops": len(hops), "played": played,
            "heard": len(cents), "median": cents[len(cents) // 2] if cents else None}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ours", action="append", required=True, help="a tuner binary (repeat to compare)")
    args = ap.parse_args(argv)
    rows = sorted(corpus.real_manifest(), key=lambda r: r["file"])
    totals = {}
    print("| file | half | note | tuning | played string | " +
          " | ".join(f"{os.path.basename(b)}: silent strings reported / played heard, median" for b in args.ours) + " |")
    print("|---|---|---|---|---|" + "---|" * len(args.ours))
    for r in rows:
        tuning = tuning_of(r["instrument"])
        if tuning is None:
            continue
        half = corpus.real_half(r)
        path = os.path.join(corpus.REAL_DIR, r["file"])
        cells = []
        for b in args.ours:
            s = score(b, path, tuning, r["nominal_note"])
            t = totals.setdefault((b, half), [0, 0])
            t[0] += s["false"]
            t[1] += s["slots"]
            heard = (f"{100 * s['heard'] / s['hops']:.0f} %, {s['median']:+.1f} ¢" if s["median"] is not None
                     else "none") if s["played"] else "—"
            cells.append(f"{100 * s['false'] / max(1, s['slots']):.1f} % / {heard}")
        played = ", ".join(TUNINGS[tuning][i] for i in s["played"]) or "none"
        print(f"| `{r['file']}` | {half} | {r['nominal_note']} | {tuning} | {played} | " + " | ".join(cells) + " |")
    print()
    print("| half | " + " | ".join(os.path.basename(b) for b in args.ours) + " | target |")
    print("|---|" + "---|" * len(args.ours) + "---|")
    for half in ("development", "holdout"):
        cells = []
        for b in args.ours:
            share = 100 * totals[(b, half)][0] / totals[(b, half)][1]
            cells.append(f"{share:.2f} % ({totals[(b, half)][0]} of {totals[(b, half)][1]}) "
                         f"{'PASS' if share <= TARGET_PERCENT else 'FAIL'}")
        print(f"| {half}: silent strings reported (% of their hops) | " + " | ".join(cells) +
              f" | ≤ {TARGET_PERCENT:g} % |")


if __name__ == "__main__":
    main()
