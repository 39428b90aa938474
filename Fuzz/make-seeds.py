#!/usr/bin/env python3
"""Writes the committed seed corpus for the fuzz targets (Fuzz/corpus/engine_fuzz, Fuzz/corpus/poly_fuzz,
Fuzz/corpus/file_fuzz).

Run from the repository root: `python3 Fuzz/make-seeds.py`. Needs sox for the compressed formats.
The seeds are small (a few KB) so libFuzzer's -max_len stays low and executions stay fast.
"""
import math
import os
import struct
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ENGINE = os.path.join(HERE, "corpus", "engine_fuzz")
FILE = os.path.join(HERE, "corpus", "file_fuzz")


def u16(v):
    return struct.pack("<H", v)


def fields(*specs):
    """Configuration fields as FuzzInput.hpp's field() reads them, one (value, lo, hi) each: tag 0 =
    the default (value None), tag 1 = a value in [lo, hi] (u16), tag 3 = raw double."""
    out = b""
    for value, lo, hi in specs:
        if value is None:
            out += b"\x00"
        elif lo <= value <= hi:
            out += b"\x01" + u16(round((value - lo) / (hi - lo) * 65535))
        else:
            out += b"\x03" + struct.pack("<d", value)
    return out


DEFAULT = (None, 0, 0)


# ---- engine_fuzz programs (see engine_fuzz.cpp for the byte layout) ---------------------------------
def config(rate=None, a4=None, documented=True):
    """Six fields (rate, the old A4 slot, four defaults), then the documented-range flag."""
    out = fields((rate, 8000, 192000), (a4, 400, 480), DEFAULT, DEFAULT, DEFAULT, DEFAULT)
    return out + (b"\x01" if documented else b"\x00")


def sine(frequency, samples, amplitude=0.5):
    op = b"\x01" + u16(round((frequency - 15) / (6000 - 15) * 65535))
    op += b"\x09"  # special amplitude index (ignored: the next byte picks a ranged amplitude)
    op += b"\x01" + u16(round(amplitude / 1.5 * 65535))
    return op + u16(samples)


def raw(values):
    return b"\x00" + u16(len(values)) + b"".join(struct.pack("<f", v) for v in values)


def specials(indices):
    return b"\x02" + u16(len(indices)) + bytes(indices)


def write(folder, name, data):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def engine_seeds():
    write(ENGINE, "a4-48k", config(48000) + sine(440, 8192) * 3)
    write(ENGINE, "e2-44k-a442", config(44100, 442) + sine(82.41, 8192) * 5)
    write(ENGINE, "low-8k", config(8000) + sine(55, 4000) * 3)
    write(ENGINE, "high-192k", config(192000) + sine(3000, 8192) * 4)
    write(ENGINE, "nan-inf-blocks", config(48000) + sine(220, 8192) * 2 +
          raw([float("nan"), float("inf"), -float("inf"), 3.4e38, 1e-45, 0.0, 1.0, -1.0] * 8) +
          specials(list(range(16)) * 16) + sine(220, 8192))
    write(ENGINE, "one-sample-blocks", config(16000) + b"\x03\xff" + b"".join(
        struct.pack("<f", 0.5 * math.sin(2 * math.pi * 330 * i / 16000)) for i in range(255)))
    write(ENGINE, "reset-and-a4", config(48000) + sine(440, 8192) * 2 + b"\x05" + struct.pack("<d", float("nan")) +
          b"\x06" + u16(30000) + sine(440, 8192) + b"\x07" + b"\x04" + u16(100) + sine(440, 8192) * 2)
    write(ENGINE, "bad-rate", config(7999))
    write(ENGINE, "bad-a4", config(48000, 480.5))
    write(ENGINE, "raw-config", b"\x03" + struct.pack("<d", 22050.0) + b"\x00" * 3 + b"\x03" +
          struct.pack("<d", 1e9) + b"\x00\x00\x00" + sine(1000, 8192) * 2)


# ---- poly_fuzz programs (see poly_fuzz.cpp for the byte layout) -----------------------------------
POLY = os.path.join(HERE, "corpus", "poly_fuzz")


def poly_config(rate=None, strings=6, targets=None, documented=True):
    """Five fields as in config() (no A4), the defaults flag, the string count, a tag per target
    (0 = the guitar's, 2 = a value in 15…6000 Hz, 3 = raw double)."""
    out = fields((rate, 8000, 192000), DEFAULT, DEFAULT, DEFAULT, DEFAULT)
    out += (b"\x01" if documented else b"\x00") + bytes([strings])
    for i in range(strings):
        t = None if targets is None else targets[i]
        if t is None:
            out += b"\x00"
        elif 15 <= t <= 6000:
            out += b"\x02" + u16(round((t - 15) / (6000 - 15) * 65535))
        else:
            out += b"\x03" + struct.pack("<d", t)
    return out


def strum(samples, strings=6, amplitude=0.5, detune=0.0):
    op = b"\x01\x09\x01" + u16(round(amplitude / 1.5 * 65535))
    op += u16(round((detune + 150) / 300 * 65535)) * strings
    return op + u16(samples)


def poly_seeds():
    write(POLY, "guitar-48k", poly_config(48000) + strum(8192) * 2)
    write(POLY, "guitar-8k-flat", poly_config(8000) + strum(4000, detune=-40) * 4)
    write(POLY, "guitar-8k-sharp-reset", poly_config(8000) + strum(4000, detune=60) * 3 + b"\x06" +
          strum(4000, detune=-100) * 2)
    write(POLY, "twelve-strings-16k", poly_config(16000, 12) + strum(8192, 12) * 2)
    write(POLY, "thirteen-strings", poly_config(48000, 13))
    write(POLY, "no-strings", poly_config(48000, 0))
    write(POLY, "too-close", poly_config(48000, 2, [110.0, 115.0]))
    write(POLY, "nan-target", poly_config(48000, 1, [float("nan")]))
    write(POLY, "specials-8k", poly_config(8000) + strum(3000) + specials(list(range(16)) * 16) +
          raw([float("nan"), float("inf"), 3.4e38, 1e-45] * 8) + strum(3000) + b"\x05" + u16(3000))
    write(POLY, "one-sample-blocks", poly_config(8000, 1, [220.0]) + b"\x03\xff" + b"".join(
        struct.pack("<f", 0.5 * math.sin(2 * math.pi * 220 * i / 8000)) for i in range(255)))


# ---- file_fuzz inputs: small audio files ------------------------------------------------------------
def wav(channels, rate, bits, frames, sample, fmt=1, data_size=None, extra=b""):
    """A RIFF/WAVE file; `sample(frame, channel)` gives a value in −1…1 (or any float for fmt 3)."""
    body = bytearray()
    for n in range(frames):
        for c in range(channels):
            v = sample(n, c)
            if fmt == 3:
                body += struct.pack("<f", v)
            elif bits == 8:
                body += struct.pack("<B", max(0, min(255, int(round(128 + 127 * v)))))
            else:
                body += struct.pack("<h", max(-32768, min(32767, int(round(32767 * v)))))
    block = channels * bits // 8
    fmt_chunk = struct.pack("<HHIIHH", fmt, channels, rate, rate * block, block, bits)
    size = len(body) if data_size is None else data_size
    riff = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt_chunk)) + fmt_chunk + extra
    riff += b"data" + struct.pack("<I", size) + bytes(body)
    return b"RIFF" + struct.pack("<I", len(riff)) + riff


def tone(frequency, rate, amplitude=0.5):
    return lambda n, c: amplitude * math.sin(2 * math.pi * frequency * n / rate)


def sox(name, args):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, name)
        subprocess.run(["sox", "-n"] + args[0] + [out] + args[1], check=True)
        with open(out, "rb") as f:
            write(FILE, name, f.read())


def file_seeds():
    write(FILE, "a3-8k-u8.wav", wav(1, 8000, 8, 4000, tone(220, 8000)))
    write(FILE, "e2-8k-s16.wav", wav(1, 8000, 16, 3200, tone(82.41, 8000)))
    write(FILE, "stereo-8k-float-nan-inf.wav", wav(2, 8000, 32, 1200, lambda n, c: [
        float("nan"), float("inf"), -float("inf"), 3.4e38, 0.5 * math.sin(n / 5)][(n + c) % 5], fmt=3))
    write(FILE, "six-channel-192k.wav", wav(6, 192000, 16, 400, tone(440, 192000)))
    write(FILE, "clipped-square-8k.wav", wav(1, 8000, 8, 3000, lambda n, c: 1.0 if (n // 20) % 2 else -1.0))
    write(FILE, "dc-offset-8k.wav", wav(1, 8000, 8, 3000, lambda n, c: 0.6 + 0.3 * math.sin(n / 6)))
    write(FILE, "silence-8k.wav", wav(1, 8000, 8, 2000, lambda n, c: 0.0))
    write(FILE, "zero-channels.wav", wav(0, 8000, 16, 0, tone(440, 8000)))
    write(FILE, "zero-rate.wav", wav(1, 0, 16, 100, tone(440, 8000)))
    write(FILE, "billion-frames.wav", wav(1, 8000, 16, 200, tone(440, 8000), data_size=2_000_000_000))
    good = wav(1, 8000, 16, 800, tone(440, 8000))
    write(FILE, "truncated-header.wav", good[:30])
    write(FILE, "truncated-data.wav", good[:900])
    write(FILE, "one-sample.wav", wav(1, 8000, 16, 1, tone(440, 8000)))
    write(FILE, "text.wav", b"this is not audio, just text named .wav\n")
    sox("g3-8k.flac", [["-r", "8000", "-b", "16", "-c", "1"], ["synth", "0.5", "pluck", "196"]])
    sox("a4-8k.aiff", [["-r", "8000", "-b", "8", "-c", "1"], ["synth", "0.3", "sine", "440"]])
    sox("c4-8k.au", [["-r", "8000", "-e", "u-law", "-c", "1"], ["synth", "0.4", "sine", "261.6"]])
    try:
        sox("d3-8k.ogg", [["-r", "8000", "-c", "1"], ["synth", "0.5", "sine", "146.8"]])
    except subprocess.CalledProcessError:
        print("sox cannot write Ogg here; skipped d3-8k.ogg")


if __name__ == "__main__":
    engine_seeds()
    poly_seeds()
    file_seeds()
    for folder in (ENGINE, POLY, FILE):
        names = sorted(os.listdir(folder))
        print(f"{folder}: {len(names)} seeds, {sum(os.path.getsize(os.path.join(folder, n)) for n in names)} bytes")
