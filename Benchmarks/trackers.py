"""The pitch trackers under test. Each returns readings as two arrays: `time` (s) and `freq` (Hz, NaN
when the tracker reports no pitch).

Reading-time convention (the same for every tracker): a reading's time is the end of the newest
sample it used.
  ours   the `time` key of each JSON line (the engine's ct_result.time).
  aubio  aubio.pitch keeps a sliding buffer of `buf` samples and is fed `hop` new samples per call;
         after the k-th call (k = 1, 2, …) the newest sample used is k·hop, so time = k·hop/fs.
         A result of 0 Hz means "no pitch".
  pYIN   librosa.pyin with center=False: frame t spans samples [t·hop, t·hop + frame), so
         time = (t·hop + frame)/fs. pYIN decodes the whole file with a Viterbi pass, so unlike the
         others it also looks at audio *after* a reading's time (it is not causal).
"""

import json
import math
import os
import subprocess
import tempfile
import threading
import warnings

import numpy as np
from scipy.io import wavfile

AUBIO_BUF, AUBIO_HOP = 4096, 512
AUBIO_METHODS = ("yinfft", "yin", "mcomb")
PYIN_FRAME, PYIN_HOP = 4096, 512
PYIN_FMIN, PYIN_FMAX = 29.0, 1400.0  # covers B0 − 40 ¢ (30.2 Hz) … E6 + 40 ¢ (1349 Hz)


def load(path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fs, x = wavfile.read(path)
    return fs, x.astype(np.float32)


def write_wav(path, x, fs):
    wavfile.write(path, fs, np.asarray(x, dtype=np.float32))


class RunStats:
    """CPU seconds (user + sys) and peak RSS (KiB) of one child process, from wait4()."""

    def __init__(self, cpu, maxrss_kib, status):
        self.cpu, self.maxrss_kib, self.status = cpu, maxrss_kib, status


def run_measured(argv, stdout_path, timeout=None, env=None):
    """Runs argv with stdout to a file; returns RunStats from the child's own rusage (os.wait4).

    A child still running after `timeout` seconds is killed (and reported with its signal status).
    """
    with open(stdout_path, "wb") as out:
        proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
                                env=env)
    timer = threading.Timer(timeout, proc.kill) if timeout else None
    if timer:
        timer.start()
    try:
        _, status, ru = os.wait4(proc.pid, 0)
    finally:
        if timer:
            timer.cancel()
    proc.returncode = os.waitstatus_to_exitcode(status)
    return RunStats(ru.ru_utime + ru.ru_stime, ru.ru_maxrss, proc.returncode)


class Ours:
    name = "ours"

    def __init__(self, binary):
        self.binary = binary
        self.error = None

    def available(self):
        return self.error is None and os.path.exists(self.binary)

    def command(self, path):
        return [self.binary, "--file", path, "--output", "jsonl"]

    def run(self, path):
        with tempfile.NamedTemporaryFile(suffix=".jsonl", delete=False) as tmp:
            out = tmp.name
        try:
            stats = run_measured(self.command(path), out, timeout=300)
            if stats.status != 0:
                raise RuntimeError(f"exit status {stats.status}")
            return parse_jsonl(out)
        finally:
            os.unlink(out)


def parse_jsonl(path):
    times, freqs = [], []
    with open(path) as fh:
        for line in fh:
            line = line.strip()
            if not line:
                continue
            obj = json.loads(line)
            times.append(float(obj["time"]))
            f = obj.get("frequency")
            freqs.append(float(f) if f is not None else math.nan)
    return np.array(times), np.array(freqs)


def aubio_run(method, fs, x):
    import aubio
    p = aubio.pitch(method, AUBIO_BUF, AUBIO_HOP, int(fs))
    p.set_unit("Hz")
    n = len(x) // AUBIO_HOP
    freqs = np.empty(n)
    for k in range(n):
        freqs[k] = p(x[k * AUBIO_HOP:(k + 1) * AUBIO_HOP])[0]
    times = (np.arange(n) + 1) * AUBIO_HOP / fs
    freqs[freqs <= 0] = np.nan
    return times, freqs


def pyin_run(fs, x):
    import librosa
    f0, voiced, _ = librosa.pyin(x.astype(np.float64), fmin=PYIN_FMIN, fmax=PYIN_FMAX, sr=fs,
                                 frame_length=PYIN_FRAME, hop_length=PYIN_HOP, center=False)
    times = (np.arange(len(f0)) * PYIN_HOP + PYIN_FRAME) / fs
    f0 = np.where(voiced, f0, np.nan)
    return times, f0


def pyin_status():
    """(available, reason)."""
    try:
        import librosa  # noqa: F401
        return True, f"librosa {librosa.__version__}"
    except Exception as exc:  # any import failure means the peer is skipped
        return False, f"librosa does not import: {exc.__class__.__name__}: {exc}".splitlines()[0]
