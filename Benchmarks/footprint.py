#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""the footprint and start-up targets' footprint figures, each beside its anchor in the same run (see docs/performance.md):
the static binary as `make install` ships it (stripped); `--version` as a whole process against
`espeak-ng -q x`; exec -> first byte on the terminal against the floor, a static C program that
opens /dev/tty and writes one line (Benchmarks/tty_floor.c); and the peak RSS of a whole session
against the espeak-ng CLI speaking the prompt's words.

Every process runs on its own pseudo-terminal, started the same way (whole_process.Session).

Usage: footprint.py STATIC_BINARY REPETITIONS FLOOR_BINARY   (PULSE_SERVER: a null sink, see run.sh)
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time

from whole_process import Session, median_line, ms, prompt_text, session_peak_rss

STATIC, REPS, FLOOR = sys.argv[1], int(sys.argv[2]), sys.argv[3]


def stripped_size(path):
    """Bytes of `path` stripped as packaging/build-deb strips it."""
    with tempfile.TemporaryDirectory() as work:
        out = os.path.join(work, "stripped")
        subprocess.run(["strip", "--remove-section=.comment", "--remove-section=.note", "--strip-unneeded",
                        "-o", out, path], check=True)
        return os.path.getsize(out)


def espeak_files():
    """The espeak-ng CLI and the libespeak-ng it loads: what the anchor runs."""
    cli = os.path.realpath(shutil.which("espeak-ng"))
    libraries = subprocess.run(["ldd", cli], capture_output=True, text=True).stdout.split()
    library = next((os.path.realpath(word) for word in libraries if "libespeak-ng" in word and word.startswith("/")),
                   None)
    return [path for path in (cli, library) if path]


def size():
    print("\n16a. the static binary as make install and the .deb ship it (make release flags, stripped)")
    stripped = stripped_size(STATIC)
    print(f"otc-prompt stripped: {stripped} bytes ({stripped / 1e6:.2f} MB); unstripped {os.path.getsize(STATIC)} "
          f"bytes  target <= 12 MB")
    anchor = espeak_files()
    total = sum(os.path.getsize(path) for path in anchor)
    print(f"for scale: {' + '.join(os.path.basename(p) for p in anchor)} = {total} bytes ({total / 1e6:.2f} MB)")


def until_first_byte(session, timeout=10.0):
    """The time the first byte arrives on the terminal (read as soon as it is there)."""
    deadline = time.monotonic() + timeout
    while not session.screen and time.monotonic() < deadline:
        session.pump(0.05)
    if not session.screen:
        raise TimeoutError(f"{session.process.args[0]} wrote nothing on the terminal")
    return time.monotonic_ns()


def whole_process(argv, peak_rss=False):
    session = Session(argv, peak_rss=peak_rss)
    status, ended, maxrss, _ = session.finish()
    assert status == 0, (argv, status)
    return ms(ended - session.started), maxrss / 1024


def first_byte(argv):
    """exec -> first byte on the terminal, then Ctrl-C for a prompt (the floor exits by itself)."""
    session = Session(argv)
    seen = until_first_byte(session)
    if argv[0] != FLOOR:
        session.type(b"\x03")
    session.finish()
    return ms(seen - session.started)


def start_up():
    print(f"\n16b. start-up against the floor, {REPS * 2} runs each, interleaved, every process on a fresh pty")
    version, espeak, floor_exit, floor_byte, text_byte, speech_byte = [], [], [], [], [], []
    for _ in range(REPS * 2):
        version.append(whole_process([STATIC, "--version"])[0])
        espeak.append(whole_process(["espeak-ng", "-q", "x"])[0])
        floor_exit.append(whole_process([FLOOR])[0])
        floor_byte.append(first_byte([FLOOR]))
        text_byte.append(first_byte([STATIC, "--speech", "none"]))
        speech_byte.append(first_byte([STATIC, "--speech", "espeak"]))
    v = median_line("otc-prompt --version (static): exec -> exit", version)
    e = median_line("anchor espeak-ng -q x: exec -> exit", espeak)
    f = median_line("floor, static C (open /dev/tty, write one line): exec -> exit", floor_exit)
    print(f"   ratio --version / espeak-ng -q x: {v / e:.2f}  target <= 0.5;  floor / espeak-ng -q x: {f / e:.2f}")
    fb = median_line("floor: exec -> first byte on the tty", floor_byte)
    t = median_line("otc-prompt --speech none (static): exec -> first byte on the tty", text_byte)
    s = median_line("otc-prompt --speech espeak (static): exec -> first byte on the tty", speech_byte)
    print(f"   distance to the floor: --speech none +{t - fb:.2f} ms ({t / fb:.1f}x), "
          f"--speech espeak +{s - fb:.2f} ms ({s / fb:.1f}x)")


def memory(text):
    print("\n16c. peak RSS of a whole session (prompt, 6 digits, Ctrl-R, completion; null sink; wait4 max RSS, each\n"
          "     process forked by Benchmarks/peak_rss.c, so that Python's own RSS before exec is not counted)")
    session_rss, anchor_rss = [], []
    for _ in range(3):
        session_rss.append(session_peak_rss([STATIC, "--speech", "espeak"]))
        anchor_rss.append(whole_process(["espeak-ng", text], peak_rss=True)[1])
    r = median_line("otc-prompt (static, --speech espeak): peak RSS", session_rss, unit="MiB", target="<= 12 MiB")
    a = median_line("anchor espeak-ng CLI speaking the prompt's words to the device: peak RSS", anchor_rss,
                    unit="MiB")
    print(f"   ratio otc-prompt / espeak-ng CLI: {r / a:.2f}")


if __name__ == "__main__":
    size()
    start_up()
    memory(prompt_text())
