"""Live input at 48 kHz without a sound card: a private PulseAudio daemon with a null sink, `paplay`
playing a 48 kHz file into it at its own (real-time) pace, and `tuner --device pulse --rate 48000
--output jsonl` capturing the sink's monitor through the ALSA pulse plugin.

Measured on the tuner process from /proc/<pid>: CPU % of one core = Δ(utime + stime) / Δwall over the
playback after a 2 s settling time, and peak RSS = VmHWM (per address space, so unlike the parent's
ru_maxrss it is not inflated by the Python process that forked it).

For information, the same Δ(utime + stime) is also split by thread (/proc/<pid>/task/*/stat, grouped by
thread name: the analysis thread, the PulseAudio client library's thread inside the ALSA pulse plugin, and
the rest — Swift's worker threads that print the readings), each with its wake-ups per second (voluntary +
involuntary context switches from /proc/<pid>/task/*/status). Their sum can be a tick or two below the
process figure: a thread that ended during the run is not counted.
"""

import os
import shutil
import signal
import subprocess
import tempfile
import time

SINK = "bench_sink"
RATE = 48000


def missing_tools():
    need = [p for p in ("pulseaudio", "pactl", "paplay") if shutil.which(p) is None]
    plugin = any(os.path.exists(d + "/libasound_module_pcm_pulse.so")
                 for d in ("/usr/lib/x86_64-linux-gnu/alsa-lib", "/usr/lib/aarch64-linux-gnu/alsa-lib"))
    return need + ([] if plugin else ["the ALSA pulse plugin (libasound2-plugins)"])


def _ticks(pid):
    with open(f"/proc/{pid}/stat") as fh:
        fields = fh.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime, clock ticks


# Thread names (the kernel's 15-character `comm`) → the group they are reported under.
PULSE_CLIENT_GROUP = "PulseAudio client thread (ALSA pulse plugin)"  # not the tuner's own (issue 13)
THREAD_GROUPS = (("tuner-analysis", "analysis (capture + engine)"),
                 ("threaded-ml", PULSE_CLIENT_GROUP))
OTHER_THREADS = "other (Swift workers printing the readings, main)"


def _threads(pid):
    """{tid: (group, utime + stime ticks, context switches)} for every thread of `pid` now."""
    out = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/stat") as fh:
                text = fh.read()
            with open(f"/proc/{pid}/task/{tid}/status") as fh:
                status = dict(line.split(":", 1) for line in fh if ":" in line)
        except OSError:  # the thread ended meanwhile
            continue
        name = text[text.index("(") + 1:text.rindex(")")]
        fields = text.rsplit(")", 1)[1].split()
        group = next((g for prefix, g in THREAD_GROUPS if name.startswith(prefix)), OTHER_THREADS)
        switches = int(status["voluntary_ctxt_switches"]) + int(status["nonvoluntary_ctxt_switches"])
        out[tid] = (group, int(fields[11]) + int(fields[12]), switches)
    return out


def _by_thread(before, after, hz, seconds):
    """{group: {"cpu_percent", "wakeups_per_s"}} over the interval between two `_threads` snapshots."""
    groups = {}
    for tid, (group, ticks, switches) in after.items():
        _, ticks0, switches0 = before.get(tid, (group, 0, 0))
        g = groups.setdefault(group, {"cpu_percent": 0.0, "wakeups_per_s": 0.0})
        g["cpu_percent"] += 100.0 * (ticks - ticks0) / hz / seconds
        g["wakeups_per_s"] += (switches - switches0) / seconds
    return groups


def _hwm_kib(pid):
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def measure(binary, wav, seconds):
    """Returns {"cpu_percent", "rss_mib", "readings", "pitched", "seconds", "threads"} or raises
    RuntimeError; "threads" is {group: {"cpu_percent", "wakeups_per_s"}} (see the module's text)."""
    lacking = missing_tools()
    if lacking:
        raise RuntimeError("not installed: " + ", ".join(lacking))
    d = tempfile.mkdtemp(prefix="bench-pulse-")
    run, home = os.path.join(d, "run"), os.path.join(d, "home")
    os.makedirs(run, mode=0o700)
    os.makedirs(home, mode=0o700)
    with open(os.path.join(d, "client.conf"), "w") as fh:
        fh.write("autospawn = no\n")
    sock = os.path.join(run, "native")
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": home, "LANG": "C.UTF-8", "XDG_RUNTIME_DIR": run,
           "PULSE_SERVER": "unix:" + sock, "PULSE_CLIENTCONFIG": os.path.join(d, "client.conf")}
    procs = []
    try:
        daemon = subprocess.Popen(
            ["pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1", "--disallow-exit",
             "--use-pid-file=no", "--high-priority=no", "--realtime=no", "--log-target=stderr",
             "--log-level=error", "-L", f"module-native-protocol-unix socket={sock} auth-anonymous=1",
             "-L", f"module-null-sink sink_name={SINK} rate={RATE} channels=1"],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        procs.append(daemon)
        deadline = time.time() + 15
        while True:
            if daemon.poll() is not None:
                raise RuntimeError(f"pulseaudio ended at start ({daemon.returncode})")
            if os.path.exists(sock) and subprocess.run(["pactl", "info"], env=env, capture_output=True,
                                                       timeout=5).returncode == 0:
                break
            if time.time() > deadline:
                raise RuntimeError("pulseaudio did not answer within 15 s")
            time.sleep(0.05)
        subprocess.run(["pactl", "set-default-source", SINK + ".monitor"], env=env, check=True,
                       capture_output=True, timeout=10)
        out_path = os.path.join(d, "readings.jsonl")
        with open(out_path, "wb") as out:
            tuner = subprocess.Popen([binary, "--device", "pulse", "--rate", str(RATE), "--output", "jsonl"],
                                     env=env, stdout=out, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        procs.append(tuner)
        time.sleep(0.5)
        player = subprocess.Popen(["paplay", f"--device={SINK}", "--latency-msec=10", wav], env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        procs.append(player)
        time.sleep(2.0)
        if tuner.poll() is not None:
            raise RuntimeError(f"tuner exited with {tuner.returncode} (live input did not start)")
        t0, c0, th0 = time.monotonic(), _ticks(tuner.pid), _threads(tuner.pid)
        player.wait(timeout=seconds + 30)
        t1, c1, th1 = time.monotonic(), _ticks(tuner.pid), _threads(tuner.pid)
        rss = _hwm_kib(tuner.pid)
        tuner.send_signal(signal.SIGTERM)
        tuner.wait(timeout=10)
        readings = pitched = 0
        with open(out_path) as fh:
            for line in fh:
                if line.strip():
                    readings += 1
                    pitched += '"frequency":null' not in line
        if pitched == 0:
            raise RuntimeError(f"no pitch in {readings} live readings (the audio did not arrive)")
        hz = os.sysconf("SC_CLK_TCK")
        return {"cpu_percent": 100.0 * (c1 - c0) / hz / (t1 - t0), "rss_mib": rss / 1024,
                "readings": readings, "pitched": pitched, "seconds": t1 - t0,
                "threads": _by_thread(th0, th1, hz, t1 - t0)}
    finally:
        for p in reversed(procs):
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(timeout=3)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()
        shutil.rmtree(d, ignore_errors=True)
