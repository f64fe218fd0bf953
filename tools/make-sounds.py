#!/usr/bin/env python3
"""Synthesises the game's sounds into assets/sounds/ (16-bit mono WAV, 44.1 kHz).

Nothing is sampled: every sound is made here from sine partials, filtered noise and a plucked
string (Karplus-Strong), with a fixed random seed, so running the script again gives the same
files byte for byte. Only Python's standard library is needed:

    python3 tools/make-sounds.py

The sounds: a stone set down on wood, a capture (stone on stone, then wood), a kingdom beaten
(a low gong), victory (a plucked pentatonic run) and a short chime for a person's turn.
"""

import math
import os
import random
import struct
import wave

RATE = 44100
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "assets", "sounds")


def silence(seconds):
    return [0.0] * int(seconds * RATE)


def mix(into, sound, at=0.0, gain=1.0):
    """Adds `sound` into `into` starting `at` seconds in, growing it as needed."""
    start = int(at * RATE)
    if len(into) < start + len(sound):
        into.extend([0.0] * (start + len(sound) - len(into)))
    for i, s in enumerate(sound):
        into[start + i] += gain * s
    return into


def partials(seconds, parts, attack=0.0005):
    """Damped sine partials: (frequency, amplitude, decay time constant in seconds), rising
    over `attack` seconds (no click at the start)."""
    n = int(seconds * RATE)
    out = [0.0] * n
    for freq, amp, tau in parts:
        w = 2 * math.pi * freq / RATE
        for i in range(n):
            t = i / RATE
            out[i] += amp * min(1.0, t / attack) * math.exp(-t / tau) * math.sin(w * i)
    return out


def noise_burst(seconds, tau, rng, smooth=0.0):
    """Decaying white noise, low-passed by a one-pole filter (smooth in 0..1)."""
    n = int(seconds * RATE)
    out = []
    y = 0.0
    for i in range(n):
        x = rng.uniform(-1, 1) * math.exp(-(i / RATE) / tau)
        y = smooth * y + (1 - smooth) * x
        out.append(y)
    return out


def pluck(freq, seconds, rng, damping=0.996):
    """A plucked string (Karplus-Strong)."""
    period = max(2, int(RATE / freq))
    buf = [rng.uniform(-1, 1) for _ in range(period)]
    out = []
    for i in range(int(seconds * RATE)):
        s = buf[i % period]
        nxt = buf[(i + 1) % period]
        buf[i % period] = damping * 0.5 * (s + nxt)
        out.append(s)
    return fade_out(out, min(0.3, seconds / 3))


def fade_out(sound, seconds):
    n = min(len(sound), int(seconds * RATE))
    for i in range(n):
        sound[len(sound) - n + i] *= 1 - i / n
    return sound


def normalise(sound, peak_db):
    peak = max(abs(s) for s in sound) or 1.0
    target = 10 ** (peak_db / 20)
    return [s * target / peak for s in sound]


def write(name, sound):
    path = os.path.join(OUT, name)
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        frames = b"".join(
            struct.pack("<h", max(-32767, min(32767, int(round(s * 32767))))) for s in sound
        )
        w.writeframes(frames)
    print(f"{name}: {len(sound) / RATE:.2f} s")


def stone(rng):
    """A stone set down on the board: a short woody knock."""
    body = partials(0.2, [(780, 0.9, 0.018), (1290, 0.5, 0.012), (2210, 0.3, 0.008), (310, 0.4, 0.03)])
    click = noise_burst(0.2, 0.004, rng, smooth=0.55)
    return fade_out(normalise(mix(body, click, gain=0.8), -6.0), 0.03)


def capture(rng):
    """Stone striking stone (bright and hard), then the knock of the stone set down."""
    clack = partials(0.12, [(2650, 0.8, 0.01), (4130, 0.5, 0.006), (5870, 0.3, 0.004)])
    clack = mix(clack, noise_burst(0.12, 0.003, rng, smooth=0.2), gain=0.6)
    sound = mix(silence(0.4), clack)
    sound = mix(sound, stone(rng), at=0.07, gain=0.8)
    return fade_out(normalise(sound, -4.0), 0.05)


def beaten(rng):
    """A kingdom falls: a low gong, with slowly beating inharmonic partials."""
    parts = [
        (110.0, 1.0, 0.9),
        (111.3, 0.6, 0.8),
        (163.5, 0.5, 0.6),
        (221.0, 0.35, 0.5),
        (331.7, 0.25, 0.35),
        (497.0, 0.15, 0.25),
    ]
    sound = partials(2.2, parts)
    sound = mix(sound, noise_burst(2.2, 0.02, rng, smooth=0.9), gain=0.4)
    return fade_out(normalise(sound, -6.0), 0.3)


def victory(rng):
    """Victory: a rising pentatonic run on a plucked string, ending on a held octave."""
    notes = [261.6, 293.7, 329.6, 392.0, 440.0, 523.3]
    sound = silence(2.4)
    for i, f in enumerate(notes):
        sound = mix(sound, pluck(f, 1.4, rng, damping=0.997), at=0.13 * i, gain=0.8)
    sound = mix(sound, pluck(523.3, 1.6, rng, damping=0.998), at=0.8, gain=0.7)
    sound = mix(sound, pluck(261.6, 1.6, rng, damping=0.998), at=0.8, gain=0.6)
    return fade_out(normalise(sound, -3.0), 0.4)


def turn(rng):
    """A person's turn: two soft bell tones, a fourth apart."""
    def bell(f):
        tone = partials(0.7, [(f, 0.8, 0.25), (f * 2.76, 0.25, 0.08), (f * 5.4, 0.1, 0.04)], 0.004)
        return fade_out(tone, 0.2)

    sound = mix(bell(987.8), bell(1318.5), at=0.12, gain=0.9)
    return fade_out(normalise(sound, -12.0), 0.1)


def main():
    os.makedirs(OUT, exist_ok=True)
    rng = random.Random(1206)
    write("stone.wav", stone(rng))
    write("capture.wav", capture(rng))
    write("beaten.wav", beaten(rng))
    write("victory.wav", victory(rng))
    write("turn.wav", turn(rng))


if __name__ == "__main__":
    main()
