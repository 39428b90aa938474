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
    rel, unmeasured, gross, octave, voiced, total = [], 0, 0, 0, 0, 0
    worst = []  # (error ¢, file) per measured pair
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
            octave += int(np.sum(is_octave(err)))
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
            worst.append((rel[-1], e["file"]))
    if not rel:
        return None
    rel = np.array(rel)
    worst.sort(reverse=True)
    return {"median": float(np.median(rel)), "p95": float(np.percentile(rel, 95)),
            "max": float(np.max(rel)), "unmeasured": unmeasured, "pairs": len(rel) + unmeasured,
            "gross": pct(gross, voiced), "voicing_miss": pct(total - voiced, total),
            "octave": pct(octave, voiced), "worst": worst[:5]}


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
    note_voiced = note_oct = 0
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
            vo = ~np.isnan(err)
            note_voiced += int(vo.sum())
            note_oct += int(is_octave(err[vo]).sum())
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
        "octave_all": pct(note_oct, note_voiced),
        "gap_pitched": pct(gap_pitched, gap_frames), "gap_frames": gap_frames,
    }


FIRST_CORRECT = GROSS  # a reading is "correct" on a real recording when within 50 ¢ of the nominal note


def real_recordings(results, entries):
    """Real recordings, scored against the nominal note only (the players tuned by ear).

    Per file, over the steady readings (from 0.3 s after the sound starts to where its level falls
    35 dB under its peak; corpus.real_note_span):
      right     voiced readings within 50 ¢ of the nominal note (right note and octave), % of voiced
      octave    voiced readings within 50 ¢ of the nominal note ± whole octaves, % of voiced
      wrong     other voiced readings (another note), % of voiced
      unvoiced  steady readings with no pitch, % of steady readings
      first     time from the sound's start to the first reading (at any time) within 50 ¢ of the
                nominal note, ms; inf when there is none
      spread    standard deviation of the right-note steady readings, ¢ (steadiness)
      offset    median of the right-note steady readings re. the nominal note, ¢ (informational)
    Pooled: right / octave / wrong over all voiced steady readings of all files, unvoiced over all
    steady readings, median first-correct time over files (a file with none counts as infinitely
    late), files never correct, median spread over files.
    """
    per = {}
    n_voiced = n_right = n_oct = n_steady = 0
    firsts, spreads = [], []
    for e in entries:
        r = results.get(e["file"])
        if r is None:
            continue
        times, freqs = r
        seg = e["segments"][0]
        f1 = seg["f1"]
        err_all = cents(freqs, f1)
        ok = ~np.isnan(err_all) & (np.abs(np.nan_to_num(err_all, nan=1e9)) <= FIRST_CORRECT)
        idx = np.nonzero(ok)[0]
        first = (max(times[idx[0]] - seg["start"], 0.0) * 1000) if len(idx) else math.inf
        err, n = steady(e, times, freqs)
        right = np.abs(err) <= GROSS
        octv = is_octave(err)
        good = err[right]
        spread = float(np.std(good)) if len(good) >= 3 else math.nan
        per[e["file"]] = {
            "right": pct(int(right.sum()), len(err)), "octave": pct(int(octv.sum()), len(err)),
            "wrong": pct(int((~right & ~octv).sum()), len(err)), "unvoiced": pct(n - len(err), n),
            "first": first, "spread": spread,
            "offset": float(np.median(good)) if len(good) else math.nan, "steady": n,
        }
        n_voiced += len(err)
        n_right += int(right.sum())
        n_oct += int(octv.sum())
        n_steady += n
        firsts.append(first)
        if not math.isnan(spread):
            spreads.append(spread)
    if not per:
        return None
    return {
        "right": pct(n_right, n_voiced), "octave": pct(n_oct, n_voiced),
        "wrong": pct(n_voiced - n_right - n_oct, n_voiced), "unvoiced": pct(n_steady - n_voiced, n_steady),
        "first": float(np.median(firsts)), "never": sum(1 for f in firsts if f == math.inf),
        "spread": float(np.median(spreads)) if spreads else math.nan, "files": len(per),
        "steady": n_steady, "per_file": per,
    }


def parse_announcements(lines, nominal_midi):
    """Counts `tuner --announce` lines for one single-note recording: (lines, right, wrong octave,
    wrong note). A line names its note first ('C2, 6 cents flat', 'A#1 in tune'); the octave is wrong
    when the pitch class is the nominal one and the octave number is not."""
    import re
    right = octave = other = 0
    names = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"]
    for line in lines:
        mt = re.match(r"\s*([A-G]#?)(-?\d+)", line)
        if not mt:
            other += 1
            continue
        pc = names.index(mt.group(1))
        midi = pc + 12 * (int(mt.group(2)) + 1)
        if midi == nominal_midi:
            right += 1
        elif pc == nominal_midi % 12:
            octave += 1
        else:
            other += 1
    return len(lines), right, octave, other
