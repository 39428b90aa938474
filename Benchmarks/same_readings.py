#!/usr/bin/env python3
"""Runs two builds of the tuner on the same files and compares every reading (engine work: a change
meant to leave the readings alone must print "identical"; a change that moves them says where).

    python3 Benchmarks/same_readings.py OLD_TUNER NEW_TUNER FILE_OR_DIR...

Each file is read with `--file F --output jsonl`; the readings are compared line by line: time, whether
there is a pitch, the frequency (as |Δ| in cents), note, cents and level. Prints one line per file that
differs, then a summary. Exit status 0 when every reading is identical, 1 otherwise. Standard library only.
"""
import json
import math
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor


def readings(binary, path):
    out = subprocess.run([binary, "--file", path, "--output", "jsonl"], capture_output=True, text=True)
    if out.returncode != 0:
        return None, out.stderr.strip()
    return [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")], None


def compare(old, new):
    """(identical, pitch gained, pitch lost, largest |Δf| in cents where both have a pitch, lines)"""
    gained = lost = 0
    worst = 0.0
    same = len(old) == len(new)
    for a, b in zip(old, new):
        if a == b:
            continue
        same = False
        fa, fb = a.get("frequency"), b.get("frequency")
        if fa is None and fb is not None:
            gained += 1
        elif fa is not None and fb is None:
            lost += 1
        elif fa is not None and fb is not None:
            worst = max(worst, abs(1200 * math.log2(fb / fa)))
    return same, gained, lost, worst, (len(old), len(new))


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    old_bin, new_bin, targets = sys.argv[1], sys.argv[2], sys.argv[3:]
    files = []
    for t in targets:
        if os.path.isdir(t):
            for root, _, names in os.walk(t):
                files += [os.path.join(root, n) for n in sorted(names) if n.endswith((".wav", ".flac"))]
        else:
            files.append(t)
    files.sort()

    def one(path):
        (a, ea), (b, eb) = readings(old_bin, path), readings(new_bin, path)
        return path, a, b, ea, eb

    differing = 0
    total_readings = 0
    with ThreadPoolExecutor(max_workers=2) as pool:
        for path, a, b, ea, eb in pool.map(one, files):
            if a is None or b is None:
                differing += 1
                print(f"{path}: error old={ea!r} new={eb!r}")
                continue
            total_readings += len(a)
            same, gained, lost, worst, counts = compare(a, b)
            if not same:
                differing += 1
                print(f"{path}: readings {counts[0]}→{counts[1]}, pitch gained {gained}, lost {lost}, "
                      f"largest frequency change {worst:.6g} ¢")
    print(f"{len(files)} files, {total_readings} readings: "
          + ("identical" if differing == 0 else f"{differing} files differ"))
    sys.exit(0 if differing == 0 else 1)


if __name__ == "__main__":
    main()
