#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The installed console agent's command line answers a real querier (packaging/check-deb).

Runs the ExecStart= of the installed otc-prompt-ask-password-console.service on a pseudo-terminal of its own (its
controlling terminal, as the unit's StandardInput=tty makes /dev/console), then asks with systemd's own querier,
`systemd-ask-password --no-tty`, types a passphrase once the question is on the terminal, and checks that the
querier prints it. In a mount namespace of its own with a fresh tmpfs on /run/systemd/ask-password, so no other
agent sees the request and no other program's request reaches this one; nothing is left behind. Needs root.
Every wait has a deadline.

Usage: agent-check.py /usr/lib/systemd/system/otc-prompt-ask-password-console.service [BINARY]
(BINARY in place of the unit's /usr/bin/otc-prompt: to try a build before it is packaged.)
"""
import fcntl
import os
import select
import shlex
import subprocess
import sys
import tempfile
import termios
import time

DIRECTORY = "/run/systemd/ask-password"
MARK = "OTC_AGENT_CHECK_NAMESPACE"
PASSPHRASE = "correct horse 9"
MESSAGE = "Passphrase for the package check"

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ask_namespace  # noqa: E402 (from this directory)

ask_namespace.enter(DIRECTORY, MARK, "otc-agent-check", "1m")


def fail(message):
    print(f"agent-check: FAILED: {message}", file=sys.stderr)
    sys.exit(1)


unit = open(sys.argv[1]).read()
exec_start = next((line.split("=", 1)[1] for line in unit.splitlines() if line.startswith("ExecStart=")), None)
if not exec_start:
    fail(f"{sys.argv[1]} has no ExecStart=")
argv = shlex.split(exec_start)
if len(sys.argv) > 2:
    argv[0] = sys.argv[2]
print(f"  the unit runs: {' '.join(argv)}")

home = tempfile.mkdtemp(prefix="otc-agent-check-")
master, slave = os.openpty()
environment = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "HOME": home, "LANG": "C.UTF-8", "TERM": "linux"}
agent = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=environment, close_fds=True,
                         start_new_session=True, preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0))
os.close(slave)
screen = b""


def pump(timeout):
    """Reads what the terminal shows within `timeout`; False once the terminal is gone."""
    global screen
    ready, _, _ = select.select([master], [], [], timeout)
    if ready:
        try:
            screen += os.read(master, 65536)
        except OSError:
            return False
    return True


def read_until(predicate, timeout, what):
    deadline = time.monotonic() + timeout
    while not predicate() and time.monotonic() < deadline and pump(0.05):
        pass
    if not predicate():
        fail(f"{what}; the terminal shows: {screen[-400:]!r}")


querier = None
try:
    read_until(lambda: screen, 20, "the agent wrote nothing on its terminal")
    querier = subprocess.Popen(["systemd-ask-password", "--no-tty", "--timeout=30", MESSAGE],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    read_until(lambda: MESSAGE.encode() in screen, 20, "the request's message never reached the terminal")
    # Keys typed before the request appeared, or in its first moment, are not its answer: type once it is quiet.
    quiet_since = time.monotonic()
    settle_deadline = quiet_since + 10
    while time.monotonic() - quiet_since < 0.5 and time.monotonic() < settle_deadline:
        before = len(screen)
        pump(0.05)
        if len(screen) != before:
            quiet_since = time.monotonic()
    os.write(master, PASSPHRASE.encode() + b"\r")
    try:
        out, err = querier.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        fail("systemd-ask-password got no answer within 20 s")
    if querier.returncode != 0 or out != (PASSPHRASE + "\n").encode():
        fail(f"systemd-ask-password exited {querier.returncode} with {len(out)} bytes on stdout: {err.decode()!r}")
    if PASSPHRASE.encode() in screen:
        fail("the passphrase was shown on the terminal")
    print("  systemd-ask-password --no-tty got the passphrase typed into the agent; the terminal never showed it")
finally:
    if querier and querier.poll() is None:
        querier.kill()
        querier.wait()
    agent.terminate()
    try:
        agent.wait(timeout=10)
    except subprocess.TimeoutExpired:
        agent.kill()
        agent.wait()
    os.close(master)
    subprocess.run(["rm", "-rf", home])
