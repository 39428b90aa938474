"""The tuner benchmark: builds the corpus, runs our engine and the peers on the same files in one
run, and prints markdown tables with every target's pass/fail (issue 4).

Run through `make bench` (which installs the Debian packages, builds the release binary and picks the
Python); see BENCHMARKS.md for what is measured and how.
"""

import argparse
import concurrent.futures
import datetime
import math
import os
import pickle
import signal
import platform
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import corpus  # noqa: E402
import metrics  # noqa: E402
import live  # noqa: E402
import trackers  # noqa: E402

# Our engine's effective analysis window N for the Cramér–Rao comparison, as CTuner/include/ctuner.h
# states it: a held note is measured over 2L samples, L = max(6·fs/f, 0.032·fs) (capped at 6 periods of
# the 26.5 Hz floor, which no note in the corpus reaches: its lowest, A0 − 40 ¢, is 26.9 Hz). So N = max(12 periods, 64 ms)·fs.
# Override with --our-window-periods / --our-window-seconds (make bench OUR_WINDOW_SECONDS=…); the
# brief's earlier placeholder, a fixed 1.5 × 0.1 s, is --our-window-periods 0 --our-window-seconds 0.15.
OUR_WINDOW_PERIODS = 12.0
OUR_WINDOW_FLOOR_SECONDS = 0.064

PEERS = [f"aubio {m}" for m in trackers.AUBIO_METHODS]

# What --only can choose, and the corpus sets each covers ("speed" is the separate speed step).
CATEGORIES = ["synthetic", "missing", "instruments", "sequences", "real", "speed"]
SET_CATEGORY = {"synthetic": "synthetic", "missing": "missing", "instrument": "instruments",
                "sequence": "sequences", "real": "real"}


def by_set_of(files, name):
    return [e for e in files if e["set"] == name]


def run_announce(ours_binary, entries, jobs):
    """`tuner --file F --announce` on each real recording (the FLAC a user would give it), in parallel.

    Returns {corpus file: list of printed lines, or an error string}."""
    def one(e):
        try:
            r = subprocess.run([ours_binary, "--file", e["source_abs"], "--announce"], capture_output=True,
                               text=True, timeout=300, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            return e["file"], "timed out after 300 s"
        if r.returncode != 0:
            return e["file"], f"exit status {r.returncode}: {r.stderr.strip()[:200]}"
        return e["file"], [ln for ln in r.stdout.splitlines() if ln.strip()]
    with concurrent.futures.ThreadPoolExecutor(max(1, jobs)) as pool:
        return dict(pool.map(one, entries))
PYIN = "pYIN"

# pYIN costs ~0.8 CPU s per audio second here (its Viterbi pass over ~1300 pitch states; ~100× aubio),
# so by default it runs on this fixed subset (~200 s of audio), chosen before any result was seen:
#   synthetic: every 6th note from B0 (B0, F1, B1, … B5), both tones, all SNRs;
#   instruments: all 7 detunes of nylon E2, distortion E4, finger bass E1, violin A4;
#   sequences: guitar; missing fundamental: the clean files.
# Added with the holdout soundfonts and the real recordings (issue 13), before any of their results was
# seen: the same four notes in every soundfont, and every real recording (~80 s).
PYIN_INSTRUMENT_NOTES = {(24, 40), (30, 64), (33, 28), (40, 69)}


def in_pyin_subset(e):
    if e["set"] == "synthetic":
        return (e["midi"] - corpus.SYNTH_LOW) % 6 == 0
    if e["set"] == "instrument":
        return (e["program"], e["midi"]) in PYIN_INSTRUMENT_NOTES and e.get("issue4", True)
    if e["set"] == "real":
        return True
    if e["set"] == "sequence":
        return e["file"].endswith("/guitar.wav")
    return e["snr"] is None


# ---------------------------------------------------------------- running

_OURS = None
_ROOT = None


def _init(ours_binary, root):
    global _OURS, _ROOT
    _OURS = trackers.Ours(ours_binary) if ours_binary else None
    _ROOT = root


def process_file(job):
    """Runs the trackers on one file; returns (file, {tracker: (times, freqs) | error string})."""
    entry, run_pyin, peers = job
    path = os.path.join(_ROOT, entry["file"])
    out = {}
    if peers:
        fs, x = trackers.load(path)
        for m in trackers.AUBIO_METHODS:
            out[f"aubio {m}"] = trackers.aubio_run(m, fs, x)
        if run_pyin:
            try:
                out[PYIN] = trackers.pyin_run(fs, x)
            except Exception as exc:  # reported per file, never hides the other trackers
                out[PYIN] = f"{exc.__class__.__name__}: {exc}"
    if _OURS is not None:
        try:
            out["ours"] = _OURS.run(path)
        except Exception as exc:
            out["ours"] = f"{exc.__class__.__name__}: {exc}"
    return entry["file"], out


def _record(name, out, results, errors):
    for tracker, r in out.items():
        if isinstance(r, str):
            errors.setdefault(tracker, []).append(f"{name}: {r}")
        else:
            results.setdefault(tracker, {})[name] = r


def _isolated(job, ours_binary, root):
    """One file in a worker process of its own: a crash there names exactly this file."""
    with concurrent.futures.ProcessPoolExecutor(1, initializer=_init, initargs=(ours_binary, root)) as pool:
        try:
            return pool.submit(process_file, job).result()
        except concurrent.futures.process.BrokenProcessPool:
            entry, run_pyin, peers = job
            names = (["ours"] if ours_binary else []) + ((PEERS + ([PYIN] if run_pyin else [])) if peers else [])
            return entry["file"], {t: "the worker process died on this file (a crash in a native library, "
                                      "or killed for memory)" for t in names}


def run_all(manifest, root, ours_binary, pyin_mode, jobs, peers=True):
    """Every tracker on every file, one worker process per job.

    A worker that dies (killed by the kernel for memory, or a crash inside a native library) makes
    the whole pool "broken", and every file not yet finished with it. Those files are run once more
    in a new pool; if that breaks too, each remaining file runs in a process of its own, so a file
    that kills its worker is reported as an error row for every tracker and the others are measured.
    (multiprocessing.Pool, used before, never returns a task whose worker died: one run hung so.)
    """
    files = manifest["files"]
    work = [(e, peers and (pyin_mode == "full" or (pyin_mode == "subset" and in_pyin_subset(e))), peers)
            for e in files]
    work.sort(key=lambda w: (not w[1], -w[0]["duration"]))  # long, slow jobs first
    if any(w[1] for w in work):
        # pYIN's numba kernels are compiled (and cached) here, once, before the workers fork: workers
        # compiling at once and writing the same cache files left a cache that crashed later runs.
        trackers.pyin_run(44100, np.sin(2 * np.pi * 220 * np.arange(8192) / 44100).astype(np.float32))
    results, errors = {}, {}
    done = 0
    pending = list(work)
    for attempt in range(2):
        broken = []
        with concurrent.futures.ProcessPoolExecutor(jobs, initializer=_init,
                                                    initargs=(ours_binary, root)) as pool:
            futures = {pool.submit(process_file, w): w for w in pending}
            for fut in concurrent.futures.as_completed(futures):
                try:
                    name, out = fut.result()
                except concurrent.futures.process.BrokenProcessPool:
                    broken.append(futures[fut])
                    continue
                _record(name, out, results, errors)
                done += 1
                if done % 100 == 0:
                    print(f"  … {done}/{len(work)} files", file=sys.stderr, flush=True)
        pending = broken
        if not pending:
            break
        print(f"  ! a worker process died; {len(pending)} file(s) left", file=sys.stderr, flush=True)
    if pending:
        print(f"  ! running those {len(pending)} one process each", file=sys.stderr, flush=True)
        with concurrent.futures.ThreadPoolExecutor(jobs) as threads:
            for name, out in threads.map(lambda w: _isolated(w, ours_binary, root), pending):
                _record(name, out, results, errors)
                if any(isinstance(r, str) for r in out.values()):
                    print(f"  ! {name}: its worker died", file=sys.stderr, flush=True)
    return results, errors


# ---------------------------------------------------------------- speed

def cpu_of(commands, scratch, repeats=5):
    """Minimum CPU seconds (user+sys) of each command over `repeats` rounds; the commands take turns
    within a round, so a busy machine slows them alike."""
    best = [math.inf] * len(commands)
    for _ in range(repeats):
        for i, argv in enumerate(commands):
            s = trackers.run_measured(argv, scratch, timeout=600)
            if s.status != 0:
                raise RuntimeError(f"{' '.join(argv)} exited with {s.status}")
            best[i] = min(best[i], s.cpu)
    return best


def peak_rss_kib(argv, scratch):
    """Peak RSS of argv, KiB, as GNU time reports it for its own child.

    Not from our wait4(): a child forked from this (large) Python process keeps the parent's RSS
    high-water mark through exec, so its ru_maxrss would report Python's size. GNU time is small and
    forks the measured program itself.
    """
    report = scratch + ".time"
    s = trackers.run_measured(["/usr/bin/time", "-f", "%M", "-o", report] + argv, scratch, timeout=600)
    if s.status != 0:
        raise RuntimeError(f"{' '.join(argv)} exited with {s.status}")
    with open(report) as fh:
        kib = int(fh.read().split()[-1])
    os.unlink(report)
    return kib


def speed(manifest, root, ours_binary, out_dir):
    sp = manifest["speed"]
    long_path, tiny_path = os.path.join(root, sp["long"]), os.path.join(root, sp["tiny"])
    seconds = sp["long_seconds"] - sp["tiny_seconds"]
    scratch = os.path.join(out_dir, "speed.out")
    res = {"audio_seconds": sp["long_seconds"]}
    aub = lambda p: ["aubiopitch", "-i", p, "-B", str(trackers.AUBIO_BUF), "-H", str(trackers.AUBIO_HOP),
                     "-p", "yinfft"]
    ours = trackers.Ours(ours_binary) if ours_binary and os.path.exists(ours_binary) else None
    commands = [aub(long_path), aub(tiny_path)]
    if ours:
        commands += [ours.command(long_path), ours.command(tiny_path)]
    try:
        cpu = cpu_of(commands, scratch)
    except Exception as exc:
        if not ours:
            raise
        res["ours_error"] = f"{exc.__class__.__name__}: {exc}"
        ours, cpu = None, cpu_of(commands[:2], scratch)
    res["aubio_cli"] = max(cpu[0] - cpu[1], 0.0) / seconds
    if ours:
        res["ours"] = max(cpu[2] - cpu[3], 0.0) / seconds
    # In-process figures (informational): aubio's Python binding around the analysis loop only.
    fs, x = trackers.load(long_path)
    for m in trackers.AUBIO_METHODS:
        t0 = time.process_time()
        trackers.aubio_run(m, fs, x)
        res[f"aubio {m} in-process"] = (time.process_time() - t0) / sp["long_seconds"]
    if ours:
        try:
            res["ours_rss_mib"] = peak_rss_kib(ours.command(long_path), scratch) / 1024
            res["ours_rss_tiny_mib"] = peak_rss_kib(ours.command(tiny_path), scratch) / 1024
            trackers.run_measured(ours.command(long_path), scratch, timeout=600)
            with open(scratch) as fh:
                n = sum(1 for line in fh if line.strip())
            res["ours_readings_per_s"] = n / sp["long_seconds"]
        except Exception as exc:
            res["ours_error"] = f"{exc.__class__.__name__}: {exc}"
        # Live at 48 kHz through a private PulseAudio server (Benchmarks/live.py), on the first 20 s.
        live_wav = os.path.join(out_dir, "live.wav")
        trackers.write_wav(live_wav, x[: int(20 * fs)], fs)
        try:
            res["live"] = live.measure(ours_binary, live_wav, 20)
        except Exception as exc:
            res["live_error"] = f"{exc}"
    try:
        os.unlink(scratch)
    except OSError:
        pass
    return res


# ---------------------------------------------------------------- tables

def fmt(v, unit="", digits=None):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "n/a"
    if v == math.inf:
        return "never"
    if digits is None:
        digits = 3 if abs(v) < 1 else 2 if abs(v) < 10 else 1
    return f"{v:.{digits}f}{unit}"


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(lines)


def verdict(value, limit):
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "FAIL (not measured)"
    return "PASS" if value <= limit else "FAIL"


# ---------------------------------------------------------------- issue 13 and 19: parts, real recordings

# Targets as issues 13 and 19 state them.
REL_P95_LIMIT = 0.3        # ¢: relative detune p95 on every soundfont and program, public and holdout
REL_FILE_LIMIT = 1.0       # ¢: the worst single instrument file (one detuned render against its 0 ¢ one)
SEQ_OCTAVE_LIMIT = 0.0     # % of voiced readings within the notes of the sequences
INSTR_OCTAVE_LIMIT = 0.0   # % of voiced steady readings of the instrument renders
REAL_OCTAVE_LIMIT = 0.5    # % of voiced steady readings of the real recordings
CPU_RATIO_LIMIT = 1.0      # our CPU per audio second / aubio yinfft's
LIVE_OWN_LIMIT = 1.0       # % of one core: the tuner's own threads live (all but libpulse's client thread), issue 13
ANNOUNCE_ONCE_MIN = 95.0   # % of real recordings announced exactly once
ANNOUNCE_NEVER_MAX = 2.0   # % of real recordings never announced
ANNOUNCE_OCTAVE_MAX = 0    # announcements naming the wrong octave


def _program_name(prog):
    return next(n for pg, n, _ in corpus.INSTRUMENTS if pg == prog)


def instrument_part_tables(p, part, ents, res, ran, col, columns, trackers_order):
    """Tables of one part; returns ours' figures for the targets."""
    sfs = []
    for e in ents:
        if e["soundfont_name"] not in sfs:
            sfs.append(e["soundfont_name"])
    p(f"### {part.capitalize()} part: {', '.join(sfs)} ({len(ents)} files)\n")
    rows, ours = [], None
    for t in columns:
        r = metrics.relative_detune(res(t), ran(t, ents)) if t in trackers_order and ran(t, ents) else None
        if t == "ours":
            ours = r
        if r is None:
            rows.append([t] + ["n/a"] * 7)
        else:
            rows.append([t, col(t, fmt(r["median"])), col(t, fmt(r["p95"])), col(t, fmt(r["max"])),
                         col(t, f"{r['unmeasured']}/{r['pairs']}"), col(t, fmt(r["gross"], " %")),
                         col(t, fmt(r["octave"], " %")), col(t, fmt(r["voicing_miss"], " %"))])
    p(table(["tracker", "median ¢", "p95 ¢", "max ¢ (worst file)", "pairs not measured", "gross in steady state",
             "octave errors (steady)", "voicing misses"], rows))
    p("")
    # Per soundfont and program.
    keys = []
    for e in ents:
        k = (e["soundfont_name"], e["program"])
        if k not in keys:
            keys.append(k)
    rows, worst_group = [], (None, None)
    for sfname, prog in keys:
        g = [e for e in ents if (e["soundfont_name"], e["program"]) == (sfname, prog)]
        row = [sfname, f"{_program_name(prog)} ({prog})"]
        for t in columns:
            r = metrics.relative_detune(res(t), ran(t, g)) if t in trackers_order and ran(t, g) else None
            row.append("n/a" if r is None else col(t, f"{fmt(r['median'])} / {fmt(r['p95'])}"))
            if t == "ours" and r is not None:
                v = r["p95"] if not r["unmeasured"] else math.inf
                if worst_group[0] is None or v > worst_group[0]:
                    worst_group = (v, f"{sfname} {_program_name(prog)}")
            elif t == "ours" and "ours" in trackers_order:
                worst_group = (math.inf, f"{sfname} {_program_name(prog)} (not measured)")
        rows.append(row)
    p("Per soundfont and program, relative detune error median / p95 (¢):\n")
    p(table(["soundfont", "program"] + columns, rows))
    p("")
    # Per key hold.
    holds = sorted({e["hold"] for e in ents})
    rows = []
    for h in holds:
        g = [e for e in ents if e["hold"] == h]
        row = [f"{h:g} s", str(len({e['group'] for e in g}))]
        for t in columns:
            r = metrics.relative_detune(res(t), ran(t, g)) if t in trackers_order and ran(t, g) else None
            row.append("n/a" if r is None else col(t, f"{fmt(r['median'])} / {fmt(r['p95'])}"))
        rows.append(row)
    p("Per key hold, relative detune error median / p95 (¢):\n")
    p(table(["key held", "notes"] + columns, rows))
    p("")
    if ours:
        p("Ours' five worst files: " + "; ".join(f"`{os.path.basename(f)}` ({os.path.dirname(f)}) {fmt(v, ' ¢')}"
                                              for v, f in ours["worst"]) + ".\n")
    return ours, worst_group


def real_tables(p, reals, res, ran, col, columns, trackers_order, announced):
    """The real-recording category and the issue-19 announcement table; returns ours' figures."""
    p("## Real recordings (`Recordings/real/`, 19 single notes; truth: the nominal note only)\n")
    p("Steady part: from 0.3 s after the sound starts (first 10 ms frame within 40 dB of the loudest) to "
      "the last frame within 35 dB of the loudest. Right = within 50 ¢ of the nominal note; octave = "
      "within 50 ¢ of it ± whole octaves (both as % of voiced steady readings); first correct = time "
      "from the sound's start to the first reading within 50 ¢ of the nominal note (median over files; "
      "a file with none counts as never); spread = std of a file's right-note steady readings (median "
      "over files).\n")
    rows, mine, per = [], None, {}
    for t in columns:
        r = metrics.real_recordings(res(t), ran(t, reals)) if t in trackers_order and ran(t, reals) else None
        per[t] = r
        if t == "ours":
            mine = r
        if r is None:
            rows.append([t] + ["n/a"] * 8)
        else:
            rows.append([t, col(t, fmt(r["right"], " %")), col(t, fmt(r["octave"], " %")),
                         col(t, fmt(r["wrong"], " %")), col(t, fmt(r["unvoiced"], " %")),
                         col(t, fmt(r["first"], " ms", 0)), col(t, f"{r['never']}/{r['files']}"),
                         col(t, fmt(r["spread"], " ¢")), str(r["steady"])])
    p(table(["tracker", "right note and octave", "octave errors", "other notes", "unvoiced",
             "median first correct", "files never correct", "median spread", "steady readings"], rows))
    p("")
    p("By half (corpus.real_half: sorted file names, even positions development, odd holdout; engine "
      "work looks at the development half only):\n")
    rows = []
    for half in ("development", "holdout"):
        sub = [e for e in reals if corpus.real_half(e) == half]
        for t in columns:
            r = (metrics.real_recordings(res(t), ran(t, sub)) if t in trackers_order and ran(t, sub) else None)
            rows.append([half, t] + (["n/a"] * 4 if r is None else [
                col(t, fmt(r["right"], " %")), col(t, fmt(r["octave"], " %")),
                col(t, fmt(r["first"], " ms", 0)), col(t, fmt(r["spread"], " ¢"))]))
    p(table(["half", "tracker", "right note and octave", "octave errors", "median first correct",
             "median spread"], rows))
    p("")
    rows = []
    for e in reals:
        seg = e["segments"][0]
        row = [f"`{os.path.basename(e['source'])}`", e["nominal"], corpus.real_half(e),
               f"{seg['steady_start']:.2f}–{seg['steady_end']:.2f} s"]
        for t in columns:
            f = (per.get(t) or {}).get("per_file", {}).get(e["file"])
            row.append("n/a" if f is None else col(t, f"{fmt(f['octave'], '', 1)} / {fmt(f['first'], '', 0)} / "
                                                      f"{fmt(f['spread'], '', 1)}"))
        rows.append(row)
    p("Per file: octave errors % / first correct ms / spread ¢:\n")
    p(table(["file", "nominal", "half", "steady part"] + columns, rows))
    p("")
    ann = None
    if announced:
        p("## Announcements on the real recordings (issue 19): `tuner --file F --announce`\n")
        rows = []
        once = never = wrong_oct = wrong_note = errors = 0
        for e in reals:
            lines = announced.get(e["file"])
            if isinstance(lines, str) or lines is None:
                errors += 1
                rows.append([f"`{os.path.basename(e['source'])}`", e["nominal"], "error", lines or "not run", "FAIL"])
                continue
            n, right, octv, other = metrics.parse_announcements(lines, e["midi"])
            once += n == 1 and right == 1
            never += n == 0
            wrong_oct += octv
            wrong_note += other
            verdict_text = ("once" if n == 1 and right == 1 else "never" if n == 0 else
                            "once, wrong note" if n == 1 else f"{n} times")
            shown = " \\| ".join(lines[:6]) + (" …" if len(lines) > 6 else "")
            rows.append([f"`{os.path.basename(e['source'])}`", e["nominal"], str(n), shown or "—", verdict_text])
        p(table(["file", "nominal", "lines", "printed", "verdict"], rows))
        n = len(reals)
        ann = {"files": n, "once": metrics.pct(once, n), "never": metrics.pct(never, n),
               "wrong_octave": wrong_oct, "wrong_note": wrong_note, "errors": errors,
               "once_n": once, "never_n": never}
        p(f"\nExactly once (the nominal note): {once}/{n}; never: {never}/{n}; lines naming the wrong octave: "
          f"{wrong_oct}; naming another note: {wrong_note}" + (f"; runs that failed: {errors}" if errors else "")
          + ".\n")
    return mine, ann


def new_tables(p, files, res, ran, col, columns, trackers_order, sp, announced, i4):
    instr = [e for e in files if e["set"] == "instrument"]
    parts = {part: [e for e in instr if e["part"] == part] for part in ("public", "holdout")}
    figures = {}
    if instr:
        p("## Instrument renders by part (issue 13): public and holdout\n")
        p("The split rule (corpus.part_of): every render made from a soundfont other than FluidR3 GM is "
          "holdout, only scored; FluidR3 renders (the issue-4 set and the wider notes) are public. Both "
          "parts render the same programs, notes and key holds. Relative truth |(m(d) − m(0)) − d| per note "
          "and key hold.\n")
        for part, ents in parts.items():
            if ents:
                figures[part] = instrument_part_tables(p, part, ents, res, ran, col, columns, trackers_order)
    reals = [e for e in files if e["set"] == "real"]
    real_ours = ann = None
    if reals:
        real_ours, ann = real_tables(p, reals, res, ran, col, columns, trackers_order, announced)
    seqs = [e for e in files if e["set"] == "sequence"]
    seq = metrics.sequences(res("ours"), seqs) if seqs and "ours" in trackers_order else None

    tg = []

    def row(metric, limit_text, limit, values):
        """values: {part: (value, text)}; a part absent from the run prints '—'."""
        cells, ok = [], []
        for part in ("public", "holdout"):
            if part not in values:
                cells += ["—", ""]
                continue
            v, text = values[part]
            res_text = verdict(v, limit)
            ok.append(res_text)
            cells += [text, res_text]
        tg.append([metric, limit_text] + cells)

    if figures:
        vals = {}
        for part, (o, wg) in figures.items():
            vals[part] = (wg[0], f"{fmt(wg[0], ' ¢')} ({wg[1]})") if o else (None, "n/a")
        row("instruments: relative detune p95, every soundfont and program (worst)", f"≤ {REL_P95_LIMIT} ¢",
            REL_P95_LIMIT, vals)
        vals = {part: ((o["max"], f"{fmt(o['max'], ' ¢')} (`{os.path.basename(o['worst'][0][1])}`)") if o else (None, "n/a"))
                for part, (o, _) in figures.items()}
        row("instruments: worst single file (relative)", f"≤ {REL_FILE_LIMIT} ¢", REL_FILE_LIMIT, vals)
        vals = {part: ((o["octave"], fmt(o["octave"], " %")) if o else (None, "n/a")) for part, (o, _) in figures.items()}
        row("octave errors: instruments (steady readings)", "0 %", INSTR_OCTAVE_LIMIT, vals)
        vals = {part: ((o["p95"], fmt(o["p95"], " ¢") + f" ({o['pairs']} pairs)") if o else (None, "n/a"))
                for part, (o, _) in figures.items()}
        row("instruments: relative detune p95, pooled (for information; the target is per program)",
            f"≤ {REL_P95_LIMIT} ¢", REL_P95_LIMIT, vals)
    if seqs:
        row("octave errors: sequences (voiced readings within the notes)", "0 %", SEQ_OCTAVE_LIMIT,
            {"public": (seq and seq["octave_all"], fmt(seq and seq["octave_all"], " %"))})
    if reals:
        row("octave errors: real recordings (voiced steady readings)", f"≤ {REAL_OCTAVE_LIMIT} %", REAL_OCTAVE_LIMIT,
            {"public": (real_ours and real_ours["octave"], fmt(real_ours and real_ours["octave"], " %"))})
    if sp:
        ratio = sp["ours"] / sp["aubio_cli"] if "ours" in sp and sp["aubio_cli"] > 0 else None
        row("CPU per audio second, ratio to aubio yinfft 4096/512", f"≤ {CPU_RATIO_LIMIT}×", CPU_RATIO_LIMIT,
            {"public": (ratio, fmt(ratio, "×"))})
    if sp and sp.get("live", {}).get("threads"):
        lv = sp["live"]
        own = sum(t["cpu_percent"] for name, t in lv["threads"].items() if name != live.PULSE_CLIENT_GROUP)
        wakes = sum(t["wakeups_per_s"] for name, t in lv["threads"].items() if name != live.PULSE_CLIENT_GROUP)
        row("live through PulseAudio: own threads (all but libpulse's client thread), % of one core",
            f"≤ {LIVE_OWN_LIMIT:g} %", LIVE_OWN_LIMIT,
            {"public": (own, f"{fmt(own, ' %')} ({wakes:.0f} wake-ups/s; whole process "
                             f"{fmt(lv['cpu_percent'], ' %')}; one {lv['seconds']:.0f} s run)")})
    if i4:
        # At 69ca058 every issue-4 target passed but the live CPU (BENCHMARKS.md); count the others' misses.
        misses = [r[0] for r in i4["targets"] if r[3] != "PASS" and not r[0].startswith("live at 48 kHz: CPU")]
        row("everything the issue-4 table passed at 69ca058 (all but live CPU) still passes", "0 misses", 0,
            {"public": (len(misses), f"{i4['passed']}/{len(i4['targets'])} pass"
                        + (f"; now missing: {', '.join(misses)}" if misses else ""))})
    if tg:
        p("## Targets (issue 13) — ours, public vs holdout\n")
        p(table(["metric", "target", "public", "result", "holdout", "result"], tg))
        results_ = [c for r in tg for c in (r[3], r[5]) if c]
        p(f"\n{sum(1 for c in results_ if c == 'PASS')}/{len(results_)} issue-13 target cells pass.\n")
    if ann:
        t19 = [["single-note recordings announced exactly once", f"≥ {ANNOUNCE_ONCE_MIN:g} %",
                f"{fmt(ann['once'], ' %', 1)} ({ann['once_n']}/{ann['files']})",
                "PASS" if ann["once"] >= ANNOUNCE_ONCE_MIN else "FAIL"],
               ["single-note recordings never announced", f"≤ {ANNOUNCE_NEVER_MAX:g} %",
                f"{fmt(ann['never'], ' %', 1)} ({ann['never_n']}/{ann['files']})", verdict(ann["never"], ANNOUNCE_NEVER_MAX)],
               ["announcements naming the wrong octave", "0", str(ann["wrong_octave"]),
                verdict(ann["wrong_octave"], ANNOUNCE_OCTAVE_MAX)]]
        p("## Targets (issue 19) — `tuner --file F --announce` on the real recordings\n")
        p(table(["metric", "target", "ours", "result"], t19))
        p("")


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--ours", default=os.path.join(HERE, "..", ".build", "release", "tuner"),
                    help="our CLI binary (runs `BIN --file F --output jsonl`)")
    ap.add_argument("--no-ours", action="store_true", help="run the peers only")
    ap.add_argument("--no-peers", action="store_true",
                    help="run our engine only (aubio and pYIN are printed as n/a; the speed step still runs "
                         "aubiopitch for the ratio); for a quick look when the machine is busy")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--our-window-seconds", type=float, default=OUR_WINDOW_FLOOR_SECONDS,
                    help="our effective analysis window N/fs for the CRLB, or its floor when "
                         "--our-window-periods is not 0 (default: 0.064 s, from ctuner.h)")
    ap.add_argument("--our-window-periods", type=float, default=OUR_WINDOW_PERIODS,
                    help="our window is max(PERIODS/f1, --our-window-seconds) for a note at f1; 0 = a "
                         "fixed window (default: 12, from ctuner.h)")
    ap.add_argument("--pyin", choices=["subset", "full", "off"], default="subset")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--corpus", default=os.path.join(HERE, "corpus"))
    ap.add_argument("--out", default=os.path.join(HERE, "out"))
    ap.add_argument("--rescore", action="store_true",
                    help="score the readings saved by the last run (out/readings.pkl) without running anything")
    ap.add_argument("--rerun-ours", action="store_true",
                    help="run only our engine again and score it against the peers' readings and the speed "
                         "figures saved by the last run (for engine work; a published table comes from a "
                         "full run)")
    ap.add_argument("--skip-note", default="", help="reason shown when pYIN could not be installed")
    ap.add_argument("--strums", action="store_true", help="also run the strums category (Benchmarks/strums.py)")
    ap.add_argument("--only", default="",
                    help="run and print only these categories, comma-separated: " + ", ".join(CATEGORIES)
                         + " (e.g. --only real,instruments); the issue-4 tables need a full run. Readings go "
                           "to out/readings-only.pkl, so a full run's are kept")
    args = ap.parse_args()
    cats = set(CATEGORIES)
    if args.only:
        cats = {c.strip() for c in args.only.split(",") if c.strip()}
        unknown = cats - set(CATEGORIES)
        if unknown:
            ap.error(f"--only: unknown categor{'y' if len(unknown) == 1 else 'ies'} {', '.join(sorted(unknown))}; "
                     f"choose from {', '.join(CATEGORIES)}")
    full = cats == set(CATEGORIES)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so the worker pool is torn down too
    os.makedirs(args.out, exist_ok=True)
    started = time.time()
    # The commit is taken when the run starts: a long run outlives commits made meanwhile.
    commit = subprocess.run(["git", "-C", HERE, "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip() or "unknown"
    dirty = subprocess.run(["git", "-C", HERE, "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True).stdout.strip()

    print("building corpus …", file=sys.stderr, flush=True)
    manifest = corpus.build(args.corpus, args.seed)
    manifest = dict(manifest, files=[e for e in manifest["files"] if SET_CATEGORY[e["set"]] in cats])
    files = manifest["files"]
    print(f"corpus: {len(files)} files, {sum(e['duration'] for e in files):.0f} s of audio "
          f"({time.time() - started:.0f} s)", file=sys.stderr, flush=True)

    pyin_ok, pyin_reason = trackers.pyin_status()
    if args.pyin == "off":
        pyin_ok, pyin_reason = False, "turned off (--pyin off)"
    if not pyin_ok and args.skip_note:
        pyin_reason = args.skip_note
    ours_binary = None if args.no_ours else os.path.abspath(args.ours)
    ours_note = ""
    if ours_binary and not os.path.exists(ours_binary):
        ours_note = f"binary {ours_binary} not found"
        ours_binary = None
    elif args.no_ours:
        ours_note = "turned off (--no-ours)"

    rerun_note = ""
    if args.rescore:
        only_pkl = os.path.join(args.out, "readings-only.pkl")
        with open(only_pkl if not full and os.path.exists(only_pkl) else os.path.join(args.out, "readings.pkl"),
                  "rb") as fh:
            saved = pickle.load(fh)
        results, errors, sp = saved["results"], saved["errors"], saved["speed"]
        announced = saved.get("announce", {})
        if "ours" not in results:
            ours_binary = None
    elif args.rerun_ours:
        if not ours_binary:
            sys.exit(f"bench.py: --rerun-ours needs our binary ({ours_note})")
        with open(os.path.join(args.out, "readings.pkl"), "rb") as fh:
            saved = pickle.load(fh)
        results, errors, sp = saved["results"], saved["errors"], saved["speed"]
        print("running ours only (peers and speed from the last full run) …", file=sys.stderr, flush=True)
        mine, my_errors = run_all(manifest, args.corpus, ours_binary, "off", args.jobs, peers=False)
        results["ours"] = mine.get("ours", {})
        errors.pop("ours", None)
        if my_errors.get("ours"):
            errors["ours"] = my_errors["ours"]
        announced = run_announce(ours_binary, by_set_of(files, "real"), args.jobs) if "real" in cats else {}
        with open(os.path.join(args.out, "readings-rerun.pkl"), "wb") as fh:
            pickle.dump({"results": results, "errors": errors, "speed": sp, "announce": announced}, fh)
        rerun_note = "ours re-run alone (--rerun-ours); peers' readings and all speed figures are from the last full run"
    else:
        print("running trackers …", file=sys.stderr, flush=True)
        t0 = time.time()
        results, errors = run_all(manifest, args.corpus, ours_binary, args.pyin if pyin_ok else "off", args.jobs,
                                  peers=not args.no_peers)
        announced = {}
        if "real" in cats and ours_binary:
            print(f"trackers done ({time.time() - t0:.0f} s); `tuner --announce` on the real recordings …",
                  file=sys.stderr, flush=True)
            announced = run_announce(ours_binary, by_set_of(files, "real"), args.jobs)
        sp = {}
        if "speed" in cats:
            print(f"trackers done ({time.time() - t0:.0f} s); measuring speed …", file=sys.stderr, flush=True)
            sp = speed(manifest, args.corpus, ours_binary, args.out)
        with open(os.path.join(args.out, "readings.pkl" if full else "readings-only.pkl"), "wb") as fh:
            pickle.dump({"results": results, "errors": errors, "speed": sp, "announce": announced}, fh)

    trackers_order = (["ours"] if ours_binary else []) + ([] if args.no_peers else PEERS + ([PYIN] if pyin_ok else []))
    columns = ["ours"] + PEERS + [PYIN]

    def window_samples(t, fs, f1):
        if t == "ours":
            seconds = args.our_window_seconds
            if args.our_window_periods:
                seconds = max(seconds, args.our_window_periods / f1)
            return round(seconds * fs)
        return trackers.PYIN_FRAME if t == PYIN else trackers.AUBIO_BUF

    def res(t):
        return results.get(t, {})

    def ran(t, entries):
        """The entries tracker t was run on (pYIN: its subset unless --pyin full)."""
        if t == PYIN and args.pyin == "subset":
            return [e for e in entries if in_pyin_subset(e)]
        return entries

    by_set = lambda s: [e for e in files if e["set"] == s]
    # The issue-4 instrument set: FluidR3 open strings held 1.5 s (the files and truth of corpus v5).
    issue4_set = [e for e in by_set("instrument") if e.get("issue4", True) and e["part"] == "public"]
    synth = by_set("synthetic")
    out = []
    p = out.append
    p(f"# Benchmark results\n")
    p(f"- commit `{commit}`{' (with uncommitted changes)' if dirty else ''}, "
      f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, {platform.node()} "
      f"({os.cpu_count()} cores), Python {platform.python_version()}")
    p(f"- command: `{' '.join(['python3', 'Benchmarks/bench.py'] + sys.argv[1:])}` (via `make bench`)")
    if rerun_note:
        p(f"- **{rerun_note}**")
    p(f"- corpus: seed {args.seed}, {len(files)} files, {sum(e['duration'] for e in files):.0f} s of audio")
    window_text = (f"max({args.our_window_periods:g} periods, {args.our_window_seconds * 1000:.0f} ms)"
                   if args.our_window_periods else f"{args.our_window_seconds * 1000:.0f} ms")
    documented = (args.our_window_periods, args.our_window_seconds) == (OUR_WINDOW_PERIODS, OUR_WINDOW_FLOOR_SECONDS)
    p(f"- ours: {ours_binary or 'n/a — ' + ours_note}; effective window N for the CRLB: {window_text}"
      + (" (as CTuner/include/ctuner.h states it)" if documented else " (set on the command line)"))
    if args.no_peers:
        p("- peers: **not run (--no-peers)**; their columns read n/a")
    else:
        p(f"- peers: aubio {trackers.AUBIO_BUF}/{trackers.AUBIO_HOP} (python3-aubio); pYIN: "
          + (f"{pyin_reason}, frame {trackers.PYIN_FRAME}, hop {trackers.PYIN_HOP}"
             + (" — on the fixed subset marked † (see BENCHMARKS.md)" if args.pyin == "subset" else "")
             if pyin_ok else f"SKIPPED — {pyin_reason}"))
    for t, errs in errors.items():
        p(f"- **{t}: {len(errs)} file(s) failed**, first: `{errs[0]}`")
    p("")

    def col(t, v):
        if t not in trackers_order:
            return "n/a"
        return v + (" †" if t == PYIN and args.pyin == "subset" and v != "n/a" else "")

    def issue4_tables():
        """The issue-4 tables and targets, unchanged (printed by a full run; --only skips them)."""
        # ---- synthetic accuracy
        acc = {}
        p("## Synthetic tones (sines and plucks, B0–E6 and a piano's A0, 44.1 and 48 kHz)\n")
        rows = []
        for snr in corpus.SNRS:
            ents = [e for e in synth if e["snr"] == snr]
            for t in columns:
                a = metrics.accuracy(res(t), ran(t, ents)) if t in trackers_order else None
                acc[(snr, t)] = a
                label = "clean" if snr is None else f"{snr} dB"
                if a is None:
                    rows.append([label, t] + ["n/a"] * 7)
                    continue
                rows.append([label, t, col(t, fmt(a["median"])), col(t, fmt(a["p95"])), col(t, fmt(a["gross"], " %")),
                             col(t, fmt(a["octave_of_gross"], " %")), col(t, fmt(a["voicing_miss"], " %")),
                             col(t, fmt(a["stability"])), a["readings"]])
        p(table(["SNR", "tracker", "median abs ¢", "p95 abs ¢", "gross >50 ¢", "octave share of gross",
                 "voicing misses", "stability std ¢", "steady readings"], rows))
        p("")

        # ---- CRLB
        crlb = {}
        p("## Sines in white noise: RMS error / Cramér–Rao bound (each tracker's own window N)\n")
        p("Readings whose own N-sample window lies wholly inside the tone (the bound is for N samples of "
          "the sine); the last column counts every steady reading of ours (from 0.3 s), for information.\n")
        rows = []
        for snr in (40, 20, 10):
            ents = [e for e in synth if e["snr"] == snr and e["tone"] == "sine"]
            row = [f"{snr} dB"]
            for t in columns:
                if t not in trackers_order:
                    row.append("n/a")
                    continue
                r = metrics.crlb_ratio(res(t), ran(t, ents), lambda fs, f1, t=t: window_samples(t, fs, f1))
                crlb[(snr, t)] = r
                row.append(col(t, fmt(r, "×")))
            if "ours" in trackers_order:
                row.append(fmt(metrics.crlb_ratio(res("ours"), ents, lambda fs, f1: window_samples("ours", fs, f1),
                                                  full_window_only=False), "×"))
            else:
                row.append("n/a")
            rows.append(row)
        p(table(["SNR"] + columns + ["ours, all steady readings"], rows))
        p("")

        # ---- missing fundamental
        p("## Missing-fundamental plucks (truth: the absent first partial; E2–E5)\n")
        rows = []
        for snr in (None, 20):
            ents = [e for e in by_set("missing") if e["snr"] == snr]
            for t in columns:
                a = metrics.accuracy(res(t), ran(t, ents)) if t in trackers_order else None
                label = "clean" if snr is None else f"{snr} dB"
                if a is None:
                    rows.append([label, t] + ["n/a"] * 4)
                else:
                    rows.append([label, t, col(t, fmt(a["median"])), col(t, fmt(a["gross"], " %")),
                                 col(t, fmt(a["octave_of_gross"], " %")), col(t, fmt(a["voicing_miss"], " %"))])
        p(table(["SNR", "tracker", "median abs ¢", "gross >50 ¢", "octave share of gross", "voicing misses"], rows))
        p("")

        # ---- instruments
        inst = {}
        p("## Instrument renders, the issue-4 set (FluidR3 GM, open strings, key held 1.5 s; relative truth "
          "|(m(d) − m(0)) − d|)\n")
        rows = []
        for t in columns:
            r = metrics.relative_detune(res(t), ran(t, issue4_set)) if t in trackers_order else None
            inst[t] = r
            if r is None:
                rows.append([t] + ["n/a"] * 6)
            else:
                rows.append([t, col(t, fmt(r["median"])), col(t, fmt(r["p95"])), col(t, fmt(r["max"])),
                             col(t, f"{r['unmeasured']}/{r['pairs']}"), col(t, fmt(r["gross"], " %")),
                             col(t, fmt(r["voicing_miss"], " %"))])
        p(table(["tracker", "median ¢", "p95 ¢", "max ¢", "pairs not measured", "gross in steady state",
                 "voicing misses"], rows))
        p("")
        fam_rows = []
        for prog, name, _ in corpus.INSTRUMENTS:
            ents = [e for e in issue4_set if e["program"] == prog]
            row = [f"{name} ({prog})"]
            for t in columns:
                r = metrics.relative_detune(res(t), ran(t, ents)) if t in trackers_order and ran(t, ents) else None
                row.append("n/a" if r is None else col(t, f"{fmt(r['median'])} / {fmt(r['p95'])}"))
            fam_rows.append(row)
        p("Per instrument, relative detune error median / p95 (¢):\n")
        p(table(["instrument (GM program)"] + columns, fam_rows))
        p("")

        # ---- bad frames per note
        bad = {}
        clean = [e for e in synth if e["snr"] is None]
        rows = []
        for t in columns:
            if t not in trackers_order:
                rows.append([t, "n/a", "n/a", "n/a"])
                continue
            ents = ran(t, clean)
            per = metrics.bad_frames_per_note(res(t), ents)
            bad[t] = per
            worst = max(per, key=lambda m: per[m])
            over = [corpus.note_label(m) for m in sorted(per) if per[m] > 2.0]
            rows.append([t, col(t, fmt(per[worst], " %")), corpus.note_label(worst),
                         f"{len(over)}/{len(per)}" + (f" ({', '.join(over[:8])}{' …' if len(over) > 8 else ''})" if over else "")])
        p("## Bad frames (unvoiced or gross) per note, clean synthetic, A0 and B0–E6\n")
        p(table(["tracker", "worst note's share", "worst note", "notes over 2 %"], rows))
        p("")

        # ---- sequences
        seq = {}
        rows = []
        for t in columns:
            r = metrics.sequences(res(t), ran(t, by_set("sequence"))) if t in trackers_order else None
            seq[t] = r
            if r is None:
                rows.append([t] + ["n/a"] * 6)
            else:
                rows.append([t, col(t, fmt(r["lock5"], " ms", 0)), col(t, fmt(r["lock1"], " ms", 0)),
                             col(t, f"{fmt(r['never5'], ' %', 1)} / {fmt(r['never1'], ' %', 1)}"),
                             col(t, fmt(r["attack_octave"], " %")), col(t, fmt(r["gap_pitched"], " %")),
                             f"{r['notes']} notes, {r['gap_frames']} gap frames"])
        p("## Note sequences at 48 kHz (string changes, re-plucks, silences)\n")
        p(table(["tracker", "median lock ±5 ¢", "median lock ±1 ¢", "never locked ±5 / ±1 ¢",
                 "octave errors on attacks", "pitches in silent gaps", "material"], rows))
        p("")

        # ---- speed
        p("## Speed (one run, same long file: "
          f"{sp['audio_seconds']:.0f} s at 48 kHz; CPU = user+sys of the process minus a start-up run on a 50 ms file, min of 5 interleaved runs)\n")
        rows = [["aubio yinfft 4096/512 (`aubiopitch` CLI)", fmt(sp["aubio_cli"] * 1000, " ms/s"), "1.00×"]]
        if "ours" in sp:
            rows.insert(0, ["ours (`tuner --file … --output jsonl`)", fmt(sp["ours"] * 1000, " ms/s"),
                            fmt(sp["ours"] / sp["aubio_cli"], "×") if sp["aubio_cli"] > 0 else "n/a"])
        for m in trackers.AUBIO_METHODS:
            rows.append([f"aubio {m} (Python binding, in-process, informational)",
                         fmt(sp[f"aubio {m} in-process"] * 1000, " ms/s"), ""])
        p(table(["tracker", "CPU per audio second", "ratio to aubio yinfft"], rows))
        if "ours" in sp:
            p(f"\nOurs: {sp['ours_readings_per_s']:.1f} readings/s; peak RSS {sp['ours_rss_mib']:.1f} MiB on the "
              f"long file ({sp['ours_rss_tiny_mib']:.1f} MiB on the 50 ms file).")
            if "live" in sp:
                lv = sp["live"]
                p(f"\nLive at 48 kHz (private PulseAudio server, null sink, `paplay` of the first 20 s of that file, "
                  f"`tuner --device pulse --rate 48000 --output jsonl`): {lv['cpu_percent']:.2f} % of one core over "
                  f"{lv['seconds']:.1f} s, peak RSS (VmHWM) {lv['rss_mib']:.1f} MiB, {lv['readings']} readings "
                  f"({lv['pitched']} with a pitch).")
                if lv.get("threads"):
                    parts = [f"{name} {t['cpu_percent']:.2f} % ({t['wakeups_per_s']:.0f} wake-ups/s)"
                             for name, t in sorted(lv["threads"].items(), key=lambda kv: -kv[1]["cpu_percent"])]
                    p("By thread (informational): " + "; ".join(parts) + ".")
            else:
                p(f"\nLive at 48 kHz: not measured — {sp.get('live_error', 'n/a')}")
        elif "ours_error" in sp:
            p(f"\nOurs: not measured — {sp['ours_error']}")
        p("")

        # ---- targets
        o = "ours"
        tg = []

        def target(metric, limit_text, value_text, ok):
            tg.append([metric, limit_text, value_text, ok])

        def best_peer(values):
            vals = [(v, t) for t, v in values if v is not None and not (isinstance(v, float) and math.isnan(v))]
            return min(vals) if vals else (None, None)

        def peers_text(getter, unit, digits=None):
            vals = [(getter(t), t) for t in PEERS + [PYIN] if t in trackers_order]
            vals = [(v, t) for v, t in vals if v is not None and not math.isnan(v)]
            if not vals:
                return "n/a"
            v, t = min(vals)
            return f"{t} {fmt(v, unit, digits)}"

        A = lambda snr, key: (lambda t: (acc.get((snr, t)) or {}).get(key))
        for snr, lim_med, lim_p95, lim_gross in ((40, 0.02, 0.1, None), (20, 0.2, None, 0.5),
                                                (10, 0.6, None, 3.0), (0, None, None, 5.0)):
            a = acc.get((snr, o))
            vm = f"; voicing misses {fmt(a['voicing_miss'], ' %')}" if a else ""
            if lim_med is not None:
                v = a["median"] if a else None
                target(f"synthetic {snr} dB: median abs error", f"≤ {lim_med} ¢", fmt(v, " ¢"), verdict(v, lim_med))
            if lim_p95 is not None:
                v = a["p95"] if a else None
                target(f"synthetic {snr} dB: p95 abs error", f"≤ {lim_p95} ¢", fmt(v, " ¢"), verdict(v, lim_p95))
            if lim_gross is not None:
                v = a["gross"] if a else None
                target(f"synthetic {snr} dB: gross (> 50 ¢)", f"≤ {lim_gross} %", fmt(v, " %") + vm,
                       verdict(v, lim_gross))
        for snr in (40, 20, 10):
            v = crlb.get((snr, o))
            target(f"sines {snr} dB: RMS / CRLB (same N)", "≤ 1.5×", fmt(v, "×", 3), verdict(v, 1.5))
        r = inst.get(o)
        target("instruments: relative detune error median", "≤ 0.02 ¢", fmt(r and r["median"], " ¢"),
               verdict(r and r["median"], 0.02))
        target("instruments: relative detune error p95", "≤ 0.2 ¢",
               fmt(r and r["p95"], " ¢") + (f" ({r['unmeasured']} pairs not measured)" if r and r["unmeasured"] else ""),
               verdict(r and r["p95"], 0.2) if not (r and r["unmeasured"]) else "FAIL")
        target("instruments: gross errors in steady state", "0 %", fmt(r and r["gross"], " %"),
               verdict(r and r["gross"], 0.0))
        per = bad.get(o)
        worst = max(per.values()) if per else None
        target("bad frames on every note A0, B0–E6, clean (worst note)", "≤ 2 % each", fmt(worst, " %"), verdict(worst, 2.0))
        s = seq.get(o)
        target("sequences: median time to lock ±5 ¢", "≤ 60 ms", fmt(s and s["lock5"], " ms", 0), verdict(s and s["lock5"], 60))
        target("sequences: median time to lock ±1 ¢", "≤ 120 ms", fmt(s and s["lock1"], " ms", 0), verdict(s and s["lock1"], 120))
        nv = max(s["never5"], s["never1"]) if s else None
        target("sequences: notes never locked (±5 / ±1 ¢)", "≤ 2 %",
               (f"{fmt(s['never5'], ' %', 1)} / {fmt(s['never1'], ' %', 1)}" if s else "n/a"), verdict(nv, 2.0))
        target("sequences: octave errors on attacks", "0 %", fmt(s and s["attack_octave"], " %"),
               verdict(s and s["attack_octave"], 0.0))
        target("sequences: pitches in silent gaps", "≤ 0.5 % of gap frames", fmt(s and s["gap_pitched"], " %"),
               verdict(s and s["gap_pitched"], 0.5))
        ratio = sp["ours"] / sp["aubio_cli"] if "ours" in sp and sp["aubio_cli"] > 0 else None
        rps = sp.get("ours_readings_per_s")
        ok = verdict(ratio, 1.0)
        if ratio is not None and (rps is None or rps < 40):
            ok = "FAIL (fewer than 40 readings/s)"
        target("CPU per audio second, ratio to aubio yinfft 4096/512", "≤ 1.0× at ≥ 40 readings/s",
               (f"{fmt(ratio, '×')} ({fmt(sp['ours'] * 1000, ' ms/s')} vs {fmt(sp['aubio_cli'] * 1000, ' ms/s')}; "
                f"{fmt(rps, '/s', 1)})") if ratio is not None else "n/a", ok)
        if "live" in sp:
            lv = sp["live"]
            target("live at 48 kHz: CPU of one core", "≤ 2 %", f"{fmt(lv['cpu_percent'], ' %')} (PulseAudio null sink, "
                   f"{lv['seconds']:.0f} s)", verdict(lv["cpu_percent"], 2.0))
            target("live at 48 kHz: peak RSS", "≤ 30 MiB", fmt(lv["rss_mib"], " MiB", 1), verdict(lv["rss_mib"], 30.0))
        else:
            why = sp.get("live_error", "our binary not run")
            live_cpu = sp["ours"] * 100 if "ours" in sp else None
            target(f"live at 48 kHz: CPU of one core (file-run estimate; live: {why})", "≤ 2 %", fmt(live_cpu, " %"),
                   verdict(live_cpu, 2.0))
            rss = sp.get("ours_rss_mib")
            target("live at 48 kHz: peak RSS (file run)", "≤ 30 MiB", fmt(rss, " MiB", 1), verdict(rss, 30.0))

        p("## Targets (issue 4) — ours\n")
        p(table(["metric", "target", "ours", "result"], tg))
        passed = sum(1 for row in tg if row[3] == "PASS")
        p(f"\n{passed}/{len(tg)} issue-4 targets pass.")
        return {"targets": tg, "bad": bad, "seq": seq, "passed": passed}


    i4 = issue4_tables() if full else None
    new_tables(p, files, res, ran, col, columns, trackers_order, sp, announced, i4)
    p(f"\nWall time {time.time() - started:.0f} s.")

    text = "\n".join(out) + "\n"
    print(text)
    suffix = "-rerun" if args.rerun_ours else "" if full else "-only"
    with open(os.path.join(args.out, f"results{suffix}.md"), "w") as fh:
        fh.write(text)
    if i4:
        # Per-note bad-frame detail for the record.
        bad = i4["bad"]
        with open(os.path.join(args.out, f"bad-frames-per-note{suffix}.md"), "w") as fh:
            cols = [t for t in columns if t in bad]
            fh.write(table(["note"] + cols, [[corpus.note_label(m)] + [fmt(bad[t].get(m), " %") for t in cols]
                                             for m in corpus.SYNTH_MIDIS]) + "\n")
    if args.strums:  # issue 15's category, its own script and table
        import strums
        strums.main(["--ours", args.ours, "--jobs", str(args.jobs)])


if __name__ == "__main__":
    main()
