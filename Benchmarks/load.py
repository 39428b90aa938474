#!/usr/bin/env python3
"""Load check (issue 18): the tuner's peak resident memory when its output is slower than its input.

Three cases, each printed against a 64 MiB ceiling (peak RSS from wait4's ru_maxrss, i.e. the kernel's
high-water mark of the tuner process itself):

  slow-reader  a long file (one hour by default) with --output jsonl into a reader that takes one line
               a millisecond: the analysis must wait for the reader (back-pressure), not queue lines;
  device-null  --device null --output jsonl for a minute into the same slow reader: a live source that
               delivers faster than real time must not build a queue (it drops, and says so);
  big-file     a 2 GB WAV with --output text written to a file on disk.

Not a timed test: it is part of `make bench` (and runs alone: python3 Benchmarks/load.py). Shorter runs
for a quick look: --hour-seconds 600 --null-seconds 20 --big-bytes 500000000 (the table says what ran).
Exit status 1 when a case exceeds the ceiling.
"""
import argparse
import math
import os
import struct
import subprocess
import sys
import tempfile
import threading
import time

CEILING_MIB = 64  # issue 18: bounded memory by design, whatever the consumer does
RATE = 48000


def write_wav(path, seconds=None, total_bytes=None):
    """A 16-bit mono WAV of a plucked-like A2 (sine with a slow tremolo), written one second at a time."""
    second = bytearray()
    for i in range(RATE):
        t = i / RATE
        value = 0.4 * math.sin(2 * math.pi * 110 * t) * (0.8 + 0.2 * math.sin(2 * math.pi * t))
        second += struct.pack('<h', int(value * 32767))
    seconds = seconds if seconds is not None else max(1, (total_bytes - 44) // len(second))
    data_bytes = len(second) * seconds
    with open(path, 'wb') as f:
        f.write(b'RIFF' + struct.pack('<I', 36 + data_bytes) + b'WAVE')
        f.write(b'fmt ' + struct.pack('<IHHIIHH', 16, 1, 1, RATE, RATE * 2, 2, 16))
        f.write(b'data' + struct.pack('<I', data_bytes))
        for _ in range(seconds):
            f.write(second)
    return seconds, data_bytes + 44


def run(tuner, arguments, stdout, seconds_limit=None, slow_reader=False):
    """Runs the tuner; returns (peak RSS in MiB, exit status, lines read, stderr, wall seconds)."""
    start = time.monotonic()
    process = subprocess.Popen([tuner] + arguments, stdout=stdout, stderr=subprocess.PIPE)
    lines = 0
    errors = []
    reader = threading.Thread(target=lambda: errors.append(process.stderr.read().decode(errors='replace')))
    reader.start()
    if slow_reader:
        deadline = start + seconds_limit if seconds_limit else None
        for _ in process.stdout:
            lines += 1
            time.sleep(0.001)  # one line a millisecond
            if deadline and time.monotonic() > deadline:
                break
        process.stdout.close()
        if deadline:
            process.terminate()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    reader.join()
    return usage.ru_maxrss / 1024, process.returncode, lines, errors[0] if errors else '', time.monotonic() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    here = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument('--tuner', default=os.path.join(here, '..', '.build', 'release', 'tuner'))
    parser.add_argument('--hour-seconds', type=int, default=3600, help='length of the slow-reader file')
    parser.add_argument('--null-seconds', type=int, default=60, help='how long --device null runs')
    parser.add_argument('--big-bytes', type=int, default=2_000_000_000, help='size of the big file')
    parser.add_argument('--dir', default=None, help='where to write the files (default: a temporary folder)')
    args = parser.parse_args()
    tuner = os.path.abspath(args.tuner)
    if not os.access(tuner, os.X_OK):
        sys.exit(f'load.py: {tuner} is not built; run swift build -c release --product tuner')

    rows = []
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        long_wav = os.path.join(folder, 'long.wav')
        seconds, size = write_wav(long_wav, seconds=args.hour_seconds)
        rss, status, lines, err, wall = run(tuner, ['--file', long_wav, '--output', 'jsonl'],
                                            subprocess.PIPE, slow_reader=True)
        rows.append((f'{seconds} s file, --output jsonl, reader 1 line/ms', rss, status,
                     f'{lines} lines read (expected {seconds * 100}), {wall:.0f} s', err))
        os.remove(long_wav)

        rss, status, lines, err, wall = run(tuner, ['--device', 'null', '--output', 'jsonl'], subprocess.PIPE,
                                            seconds_limit=args.null_seconds, slow_reader=True)
        warning = next((l for l in err.splitlines() if l.startswith('Warning:')), 'no warning')
        rows.append((f'--device null {args.null_seconds} s, --output jsonl, reader 1 line/ms', rss, status,
                     f'{lines} lines read; {warning}', ''))

        big_wav = os.path.join(folder, 'big.wav')
        seconds, size = write_wav(big_wav, total_bytes=args.big_bytes)
        out_path = os.path.join(folder, 'big.txt')
        with open(out_path, 'wb') as out:
            rss, status, _, err, wall = run(tuner, ['--file', big_wav, '--output', 'text'], out)
        written = os.path.getsize(out_path)
        rows.append((f'{size / 1e9:.2f} GB file ({seconds} s), --output text > file', rss, status,
                     f'{written / 1e6:.0f} MB written, {wall:.0f} s', err))

    print(f'| case | peak RSS | ceiling | verdict | exit | notes |')
    print(f'|---|---|---|---|---|---|')
    failed = False
    for name, rss, status, notes, err in rows:
        ok = rss <= CEILING_MIB
        failed |= not ok
        print(f'| {name} | {rss:.1f} MiB | {CEILING_MIB} MiB | {"pass" if ok else "FAIL"} | {status} | {notes} |')
        for line in err.splitlines():
            if not line.startswith('Warning:'):
                print(f'  stderr: {line}', file=sys.stderr)
    sys.exit(1 if failed else 0)


if __name__ == '__main__':
    main()
