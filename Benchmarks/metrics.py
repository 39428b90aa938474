"""Scores readings against the corpus truth. Every function takes {file: (times, freqs)} for one
tracker and the manifest entries; frequencies are Hz with NaN for "no pitch".

Definitions (the same for every tracker):
  error        1200·log2(f / f1) cents, f1 = the truth (first partial) at the reading's time.
  steady part  readings whose time is in [steady_start, end] of a note (0.3 s after the onset for
               synthetic material; 0.3 s … 1.4 s after note-on for instrument renders).
  gross        a voiced steady reading with |error| > 50 ¢; rate = gross / voiced readings.
  octave       a gross reading within 50 ¢ of a whole number (≠ 0) of octaves from the truth.
  voicing miss a steady reading with no pitch; rate = misses / steady readings.
  stability    standard deviation of the (non-gross) readings over one note's steady part, in cents;
               the median over notes is reported.
"""

import math

import numpy as np

GROSS = 50.0


def cents(f, f1):
    return 1200.0 * np.log2(f / f1)


def is_octave(err):
    k = np.round(err / 1200.0)
    return (k != 0) & (np.abs(err - 1200.0 * k) <= GROSS)


def pct(a, b):
    return 100.0 * a / b if b else math.nan


def steady(entry, times, freqs):
    """(errors of voiced steady readings, number of steady readings) for a one-note file."""
    seg = entry["segments"][0]
    end = seg.get("steady_end", seg["end"])
    sel = (times >= seg["steady_start"]) & (times <= end)
    f = freqs[sel]
    voiced = ~np.isnan(f)
    return cents(f[voiced], seg["f1"]), int(sel.sum())


def accuracy(results, entries):
    """Median / p95 |error|, gross, octave share of gross, voicing misses, stability."""
    errs, total, stds, missing = [], 0, [], 0
    for e in entries:
        r = results.get(e["file"])
        if r is None:
            missing += 1
            continue
        err, n = steady(e, *r)
        errs.append(err)
        total += n
        good = err[np.abs(err) <= GROSS]
        if len(good) >= 3:
            stds.append(float(np.std(good)))
    if not errs:
        return None
    err = np.concatenate(errs)
    a = np.abs(err)
    gross = a > GROSS
    return {
        "median": float(np.median(a)) if len(a) else math.nan,
        "p95": float(np.percentile(a, 95)) if len(a) else math.nan,
        "gross": pct(int(gross.sum()), len(a)),
        "octave_of_gross": pct(int(is_octave(err[gross]).sum()), int(gross.sum())),
        "voicing_miss": pct(total - len(a), total),
        "stability": float(np.median(stds)) if stds else math.nan,
        "readings": total, "files_failed": missing,
    }


def crlb_hz(fs, n, snr_linear):
    """Cramér–Rao bound std of a real sine's frequency, Hz: fs/(2π)·sqrt(12/(SNR·N(N²−1)))."""
    return fs / (2 * math.pi) * math.sqrt(12.0 / (snr_linear * n * (n * n - 1.0)))


def crlb_ratio(results, entries, window_samples, full_window_only=True):
    """RMS error (Hz) of voiced, non-gross steady readings over the CRLB std for window N.

    N = window_samples(fs, f1) (the tracker's own analysis window for the file's rate and note);
    SNR = A²/(2σ²) from the exact amplitude and noise σ of each file. The bound is for N samples of
    the sine, so only readings whose N-sample window lies wholly inside the tone count (time ≥ onset +
    N/fs, and ≥ the steady start); for a long window on a low note that is later than 0.3 s. Gross
    readings are excluded (the accuracy table counts them). full_window_only=False counts every
    steady reading (shown for information).
    """
    acc, count = 0.0, 0
    for e in entries:
        r = results.get(e["file"])
        if r is None:
            continue
        times, freqs = r
        seg = e["segments"][0]
        n = window_samples(e["fs"], seg["f1"])
        start = seg["steady_start"]
        if full_window_only:
            start = max(start, seg["start"] + n / e["fs"])
        sel = (times >= start) & (times <= seg["end"]) & ~np.isnan(freqs)
        f = freqs[sel]
        f = f[np.abs(cents(f, seg["f1"])) <= GROSS]
        snr = e["amplitude"] ** 2 / (2 * e["noise_sigma"] ** 2)
        bound = crlb_hz(e["fs"], n, snr)
        acc += float(np.sum(((f - seg["f1"]) / bound) ** 2))
        count += len(f)
    return math.sqrt(acc / count) if count else math.nan


def relative_detune(results, entries):
    """Instrument renders: |(m(d) − m(0)) − d| per note and detune, m = median reading in cents.

    Also the gross rate of steady readings against the nominal note shifted by the detune.
    """
    groups = {}
    for e in entries:
        groups.setdefault(e["group"], []).append(e)
    rel, unmeasured, gross, voiced, total = [], 0, 0, 0, 0
    for members in groups.values():
        m = {}
        for e in members:
            r = results.get(e["file"])
            if r is None:
                continue
            err, n = steady(e, *r)
            total += n
            voiced += len(err)
            gross += int(np.sum(np.abs(err) > GROSS))
            if len(err):
                m[e["detune_cents"]] = float(np.median(err)) + e["detune_cents"]  # cents re. nominal
        ref = m.get(0.0)
        for e in members:
            d = e["detune_cents"]
            if d == 0.0:
                continue
            if ref is None or d not in m:
                unmeasured += 1
                continue
            rel.append(abs((m[d] - ref) - d))
    if not rel:
        return None
    rel = np.array(rel)
    return {"median": float(np.median(rel)), "p95": float(np.percentile(rel, 95)),
            "max": float(np.max(rel)), "unmeasured": unmeasured, "pairs": len(rel) + unmeasured,
            "gross": pct(gross, voiced), "voicing_miss": pct(total - voiced, total)}


def bad_frames_per_note(results, entries):
    """Clean synthetic notes: share of steady readings that are unvoiced or gross, per MIDI note."""
    per = {}
    for e in entries:
        r = results.get(e["file"])
        bad, n = per.get(e["midi"], (0, 0))
        if r is None:
            per[e["midi"]] = (bad, n)
            continue
        err, total = steady(e, *r)
        per[e["midi"]] = (bad + (total - len(err)) + int(np.sum(np.abs(err) > GROSS)), n + total)
    return {m: pct(b, n) if n else 100.0 for m, (b, n) in per.items()}


GAP_MARGIN = 0.45  # s; longer than any tracker's look-back (ours ≤ 2·6 periods of 29 Hz = 0.41 s; aubio/pYIN 93 ms)


def sequences(results, entries):
    """Time to lock (±5 ¢, ±1 ¢), never locked, octave errors on attacks, pitches in silent gaps.

    Lock: the first reading after the onset from which every reading until the note ends is voiced
    and within the tolerance; time to lock = that reading's time − onset; a note that never locks
    counts as infinitely late in the median (so the median is over all notes). Attack: readings in the
    first 0.3 s after the onset. Gap frames: readings in a silent gap at least GAP_MARGIN after the
    gap's start (earlier ones may still see the note through their analysis window).
    """
    locks = {5.0: [], 1.0: []}
    never = {5.0: 0, 1.0: 0}
    notes = 0
    attack_voiced = attack_oct = 0
    gap_frames = gap_pitched = 0
    for e in entries:
        r = results.get(e["file"])
        if r is None:
            continue
        times, freqs = r
        for seg in e["segments"]:
            sel = (times > seg["start"]) & (times <= seg["end"])
            t, f = times[sel], freqs[sel]
            err = cents(f, seg["f1"])
            notes += 1
            for tol in (5.0, 1.0):
                ok = ~np.isnan(err) & (np.abs(np.nan_to_num(err, nan=1e9)) <= tol)
                bad_idx = np.nonzero(~ok)[0]
                first = 0 if len(bad_idx) == 0 else bad_idx[-1] + 1
                if first >= len(t):
                    never[tol] += 1
                    locks[tol].append(math.inf)
                else:
                    locks[tol].append(t[first] - seg["start"])
            att = (t <= seg["start"] + 0.3) & ~np.isnan(err)
            attack_voiced += int(att.sum())
            attack_oct += int(is_octave(err[att]).sum())
        for gap in e["gaps"]:
            sel = (times >= gap["start"] + GAP_MARGIN) & (times <= gap["end"])
            gap_frames += int(sel.sum())
            gap_pitched += int((~np.isnan(freqs[sel])).sum())
    if not notes:
        return None
    return {
        "lock5": float(np.median(locks[5.0]) * 1000),
        "lock1": float(np.median(locks[1.0]) * 1000),
        "never5": pct(never[5.0], notes), "never1": pct(never[1.0], notes), "notes": notes,
        "attack_octave": pct(attack_oct, attack_voiced),
        "gap_pitched": pct(gap_pitched, gap_frames), "gap_frames": gap_frames,
    }
