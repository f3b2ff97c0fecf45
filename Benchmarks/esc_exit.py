#!/usr/bin/env python3
"""Esc -> exit: how long a lone Esc takes to end the prompt (Esc on a slow link). It waits the Esc
delay (--escape-delay, 0.3 s by default) for the rest of a key, then reads and drops what a slow
link may still bring until the terminal has been quiet for twice that delay, so the figure is about
0.9 s plus the exit itself; Ctrl-C needs neither wait.
Usage: esc_exit.py PROMPT [REPETITIONS] [OPTIONS...]"""
import os
import pty
import select
import sys
import time


def once(binary, options, key):
    pid, fd = pty.fork()
    if pid == 0:
        os.environ.update({"TERM": "xterm-256color", "LANG": "C.UTF-8", "PULSE_SERVER": "unix:/nonexistent",
                           "XDG_CONFIG_HOME": "/nonexistent"})
        os.execv(binary, [binary, "--speech", "none"] + options)
    shown, end = b"", time.time() + 10
    while b"Verification" not in shown and time.time() < end:
        if select.select([fd], [], [], 0.1)[0]:
            try:
                shown += os.read(fd, 4096)
            except OSError:
                break
    start = time.monotonic()
    os.write(fd, key)
    deadline = start + 10
    while time.monotonic() < deadline:
        if select.select([fd], [], [], 0.02)[0]:
            try:
                os.read(fd, 4096)
            except OSError:
                pass
        if os.waitpid(pid, os.WNOHANG)[0]:
            break
    else:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
    os.close(fd)
    return time.monotonic() - start


def main():
    binary = sys.argv[1]
    repetitions = int(sys.argv[2]) if len(sys.argv) > 2 else 15
    options = sys.argv[3:]
    for name, key in (("Esc", b"\x1b"), ("Ctrl-C", b"\x03")):
        times = sorted(once(binary, options, key) for _ in range(repetitions))
        print(f"{name} -> exit: median {times[len(times) // 2] * 1000:.0f} ms, "
              f"max {times[-1] * 1000:.0f} ms ({repetitions} runs)")


main()
