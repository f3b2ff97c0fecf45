#!/usr/bin/env python3
"""Types a code into an installed otc-prompt on a pseudo-terminal of its own and checks the result.

usage: pty-check.py [--expect STDOUT] TYPED COMMAND [ARGUMENT...]
Runs COMMAND in a session of its own whose controlling terminal is a new pseudo-terminal (stdout a
pipe), waits for the prompt to draw, types TYPED and Enter, and passes when COMMAND exits 0, its
stdout is exactly STDOUT (default TYPED and a newline) and the terminal's attributes afterwards
equal those before. Every wait has its own deadline.
"""
import argparse
import fcntl
import os
import select
import subprocess
import sys
import termios
import time

DEADLINE_SECONDS = 20


def read_until(fd, predicate, deadline, strict=True):
    """Reads the terminal's output until predicate(output) holds or the deadline passes (an error if strict)."""
    seen = b""
    while not predicate(seen):
        left = deadline - time.monotonic()
        if left <= 0:
            if not strict:
                return seen
            raise TimeoutError(f"no expected output on the terminal; saw {seen[-300:]!r}")
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:  # EIO: the prompt closed its side
                return seen
            if not chunk:
                return seen
            seen += chunk
    return seen


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--expect")
    parser.add_argument("typed")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    arguments = parser.parse_args()
    code, command = arguments.typed, arguments.command
    expected = (arguments.expect if arguments.expect is not None else code + "\n").encode()
    deadline = time.monotonic() + DEADLINE_SECONDS
    primary, secondary = os.openpty()
    before = termios.tcgetattr(secondary)

    def controlling_terminal():
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    child = subprocess.Popen(
        command,
        stdin=secondary,
        stdout=subprocess.PIPE,
        stderr=secondary,
        start_new_session=True,
        preexec_fn=controlling_terminal,
        env={**os.environ, "TERM": "xterm-256color"},
    )
    try:
        # The field is drawn once raw mode is on; then type the code one key at a time.
        screen = read_until(primary, lambda seen: len(seen) > 0, deadline)
        time.sleep(0.2)
        for key in code:
            os.write(primary, key.encode())
            time.sleep(0.05)
        os.write(primary, b"\r")
        while child.poll() is None and time.monotonic() < deadline:
            screen += read_until(primary, lambda seen: len(seen) > 0, time.monotonic() + 0.1, strict=False)
        screen += read_until(primary, lambda seen: False, time.monotonic() + 0.2, strict=False)
        if child.poll() is None:
            raise TimeoutError("the prompt did not exit after the code was typed")
        stdout = child.stdout.read()
        after = termios.tcgetattr(secondary)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait(timeout=5)
    problems = []
    if child.returncode != 0:
        problems.append(f"exit status {child.returncode}, expected 0")
    if stdout != expected:
        problems.append(f"stdout {stdout!r}, expected {expected!r}")
    if after != before:
        problems.append(f"terminal attributes not restored: before {before}, after {after}")
    if problems:
        shown = screen.decode(errors="replace")[-600:]
        sys.exit("pty-check: " + "; ".join(problems) + f"\nthe terminal showed (last 600 characters): {shown!r}")
    print(f"pty-check: {' '.join(command)}: stdout {stdout!r}, exit 0, terminal restored")


if __name__ == "__main__":
    main()
