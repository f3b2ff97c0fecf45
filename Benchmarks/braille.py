#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The braille figures (docs/performance.md), with a real brltty whose Virtual driver is the display:

- key -> its cells written to BrlAPI: a key written to the prompt's pty, until the BrlAPI write packet that
  shows it arrives at a relay between the prompt and brltty (the socket's other end, so the figure is the
  prompt's own: decoding, the session, the view, the thread hand-off, libbrlapi);
- key -> shown by brltty: the same key until brltty sends the display its new text (brltty's own update
  added), and beside it the anchor, a `read -s`-style prompt under brltty's screen review: it echoes nothing,
  so the review never shows the key at all;
- start-up with braille off: the prompt's first draw with `--braille none`, with `auto` and no brltty, and
  with `auto` and a brltty that answers (the display taken beside the prompt, not before it); with
  OTC_BENCH_BASELINE=BINARY, a build from before braille too.

brltty runs as in the tests (PrivateBrltty): private directory, no screen driver, no alert tunes, an empty
capability bounding set, TCP on a private port. Usage: braille.py OTC_PROMPT_BINARY [REPETITIONS]
"""
import os
import pty
import random
import select
import shutil
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time

BINARY = sys.argv[1]
REPS = int(sys.argv[2]) if len(sys.argv) > 2 else 15
KEYS_PER_RUN = 10


def free_number():
    while True:
        number = random.randint(3000, 9000)
        probe = socket.socket()
        try:
            probe.bind(("127.0.0.1", 4101 + number))
            return number
        except OSError:
            continue
        finally:
            probe.close()


class Brltty:
    """brltty with its Virtual driver; `visual` holds (monotonic ns, text) of every text it shows."""

    def __init__(self, cells=40):
        self.directory = tempfile.mkdtemp(prefix="otc-bench-brltty-")
        self.number = free_number()
        display = self.directory + "/display.sock"
        self.process = subprocess.Popen(
            ["setpriv", "--bounding-set=-all", "--inh-caps=-all", "--no-new-privs", "--", "/usr/bin/brltty",
             "-n", "-q", "-e", "-l", "warning", "-b", "vr", "-d", "server:" + display, "-x", "no", "-s", "no",
             "-A", f"auth=none,host=127.0.0.1:{self.number}", "-P", self.directory + "/pid", "-W", self.directory,
             "-U", self.directory, "-f", "/dev/null", "-F", self.directory + "/prefs", "-o", "alert-tunes=no"],
            stderr=subprocess.DEVNULL, env={"PATH": "/usr/bin:/bin", "HOME": self.directory})
        deadline = time.monotonic() + 10
        while True:
            try:
                self.display = socket.socket(socket.AF_UNIX)
                self.display.connect(display)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.02)
        self.display.sendall(f"Cells {cells}\n".encode())
        self.visual = []
        threading.Thread(target=self._read, daemon=True).start()
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", 4101 + self.number), timeout=1).close()
                break
            except OSError:
                time.sleep(0.02)

    def _read(self):
        buffer = b""
        while True:
            try:
                data = self.display.recv(4096)
            except OSError:
                return
            if not data:
                return
            now = time.monotonic_ns()
            buffer += data
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                if line.startswith(b"Visual "):
                    self.visual.append((now, line[8:-1].decode("utf-8", "replace").rstrip()))

    def stop(self):
        self.process.terminate()
        self.process.wait(5)
        self.display.close()
        shutil.rmtree(self.directory, ignore_errors=True)


class Relay:
    """A TCP relay to brltty that notes when each BrlAPI write packet ('w') from the prompt arrives."""

    def __init__(self, target):
        self.target = target
        self.listener = socket.socket()
        self.number = free_number()
        self.listener.bind(("127.0.0.1", 4101 + self.number))
        self.listener.listen(4)
        self.writes = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            client, _ = self.listener.accept()
            server = socket.create_connection(("127.0.0.1", self.target))
            threading.Thread(target=self._pump, args=(client, server, True), daemon=True).start()
            threading.Thread(target=self._pump, args=(server, client, False), daemon=True).start()

    def _pump(self, source, destination, note):
        pending = b""
        while True:
            try:
                data = source.recv(65536)
            except OSError:
                return
            if not data:
                destination.shutdown(socket.SHUT_WR)
                return
            now = time.monotonic_ns()
            if note:
                pending += data
                while len(pending) >= 8:
                    size, kind = struct.unpack(">II", pending[:8])
                    if len(pending) < 8 + size:
                        break
                    if kind == ord("w"):
                        self.writes.append(now)
                    pending = pending[8 + size:]
            destination.sendall(data)


class Prompt:
    def __init__(self, arguments, environment, binary=BINARY):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execve(binary, [binary] + arguments, environment)
        self.screen = b""

    def pump(self, until, deadline=10.0):
        end = time.monotonic() + deadline
        while not until() and time.monotonic() < end:
            if select.select([self.fd], [], [], 0.002)[0]:
                try:
                    self.screen += os.read(self.fd, 65536)
                except OSError:
                    return False
        return until()

    def end(self):
        try:
            os.kill(self.pid, 9)
        except ProcessLookupError:
            pass
        os.waitpid(self.pid, 0)
        os.close(self.fd)


def environment(host=None):
    work = tempfile.mkdtemp(prefix="otc-bench-braille-")
    env = {"TERM": "xterm-256color", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin", "HOME": work,
           "XDG_RUNTIME_DIR": work, "XDG_CONFIG_HOME": work, "PULSE_SERVER": "unix:/nonexistent", "WINDOWPATH": "1"}
    if host:
        env.update({"BRLAPI_HOST": host, "BRLAPI_AUTH": "none"})
    return env


def report(name, values, target=""):
    values = sorted(values)
    p90 = values[min(len(values) - 1, (9 * len(values)) // 10)]
    print(f"{name}: median {statistics.median(values):.2f} ms, p90 {p90:.2f}, min {values[0]:.2f}, "
          f"max {values[-1]:.2f} (n={len(values)})" + (f"  target {target}" if target else ""), flush=True)


def keys():
    brltty = Brltty()
    relay = Relay(4101 + brltty.number)
    written, shown = [], []
    try:
        for _ in range(REPS):
            prompt = Prompt(["--speech", "none", "--braille", "auto", "--style", "line", "--no-auto-submit"],
                            environment(f"127.0.0.1:{relay.number}"))
            prompt.pump(lambda: any(text.startswith("Verification code:") for _, text in brltty.visual))
            expected = "Verification code:"
            for index in range(KEYS_PER_RUN):
                key, expected = (b"1", "Verification code: 1") if index % 2 == 0 else (b"\x7f", "Verification code:")
                writes, visual = len(relay.writes), len(brltty.visual)
                start = time.monotonic_ns()
                os.write(prompt.fd, key)
                if not prompt.pump(lambda: len(relay.writes) > writes and len(brltty.visual) > visual
                                   and brltty.visual[-1][1] == expected):
                    print(f"key {index}: not shown ({brltty.visual[-1:]})", flush=True)
                    continue
                written.append((relay.writes[writes] - start) / 1e6)
                shown.append((brltty.visual[visual][0] - start) / 1e6)
            prompt.end()
    finally:
        brltty.stop()
    report("key -> its cells written to BrlAPI", written, "<= 5 ms")
    report("key -> shown by brltty (its update added)", shown)
    print("anchor: a read -s prompt under brltty's screen review: never shown (nothing is echoed to review)")


def startup():
    def first_draw(arguments, host=None, binary=BINARY):
        times = []
        for _ in range(REPS):
            start = time.monotonic_ns()
            prompt = Prompt(["--speech", "none", "--style", "line"] + arguments, environment(host), binary)
            prompt.pump(lambda: b"Verification code" in prompt.screen)
            times.append((time.monotonic_ns() - start) / 1e6)
            prompt.end()
        return times

    # OTC_BENCH_BASELINE: a build from before braille, run alternately with this one's, without the option.
    baseline = os.environ.get("OTC_BENCH_BASELINE")
    if baseline:
        report("start -> field drawn, the baseline build (no braille)", first_draw([], binary=baseline))
    report("start -> field drawn, --braille none", first_draw(["--braille", "none"]))
    report("start -> field drawn, --braille auto, no brltty", first_draw(["--braille", "auto"]))
    brltty = Brltty()
    try:
        report("start -> field drawn, --braille auto, brltty answers",
               first_draw(["--braille", "auto"], f"127.0.0.1:{brltty.number}"))
    finally:
        brltty.stop()


keys()
startup()
