#!/bin/sh
# Installs what the benchmark needs and prints the Python interpreter to run it with.
#  - Debian packages: FluidSynth + the FluidR3 GM soundfont (instrument renders), aubio (peer tracker,
#    Python binding and the `aubiopitch` CLI used for the speed ratio), NumPy, SciPy, venv, and GNU
#    time (peak RSS of our process); PulseAudio, its utilities and the ALSA pulse plugin (the live
#    measurement: a private server with a null sink stands in for the sound card this machine lacks).
#  - A virtual environment at Benchmarks/out/venv made from Debian's /usr/bin/python3 with
#    --system-site-packages (so Debian's aubio/NumPy/SciPy are used), where pip installs librosa for
#    the pYIN peer. NumPy is pinned to Debian's version so python3-aubio keeps working.
# If the venv or librosa cannot be installed, the benchmark runs with /usr/bin/python3 and reports pYIN
# as skipped with the reason (written to Benchmarks/out/pyin-skip.txt).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="$here/out"
mkdir -p "$out"
log="$out/setup.log"
: > "$log"

pkgs="fluidsynth fluid-soundfont-gm timgm6mb-soundfont musescore-general-soundfont-small python3-soundfile python3-aubio aubio-tools python3-numpy python3-scipy python3-venv time pulseaudio pulseaudio-utils libasound2-plugins"
missing=""
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "installing Debian packages:$missing" >&2
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update >>"$log" 2>&1
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y $missing >>"$log" 2>&1 || {
        echo "apt-get install failed; see $log" >&2; exit 1; }
fi

rm -f "$out/pyin-skip.txt"
python=/usr/bin/python3
venv="$out/venv"
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import librosa, aubio" >/dev/null 2>&1; then
    echo "setting up $venv with librosa (pYIN) …" >&2
    numpy_version=$(/usr/bin/python3 -c "import numpy; print(numpy.__version__)")
    if /usr/bin/python3 -m venv --system-site-packages "$venv" >>"$log" 2>&1 \
        && "$venv/bin/pip" install --disable-pip-version-check -q librosa "numpy==$numpy_version" >>"$log" 2>&1 \
        && "$venv/bin/python" -c "import librosa, aubio" >>"$log" 2>&1; then
        :
    else
        reason=$(grep -E "ERROR|Error|error" "$log" | tail -1 | cut -c1-200)
        echo "pip install librosa failed: ${reason:-see Benchmarks/out/setup.log}" > "$out/pyin-skip.txt"
        echo "pYIN will be skipped: $(cat "$out/pyin-skip.txt")" >&2
    fi
fi
if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "import aubio, numpy, scipy" >/dev/null 2>&1; then
    python="$venv/bin/python"
fi
echo "$python"
