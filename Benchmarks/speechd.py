#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Issue 12's figures: otc-prompt through a real speech-dispatcher, side by side in one run with
speech-dispatcher's own client (spd-say, through libspeechd), a raw SSIP client (the floor) and
the direct espeak-ng backend. Everything is measured where the user hears it: the null sink's
monitor, recorded with parec (16 kHz, 5 ms fragments) and stamped on arrival with the same
monotonic clock that stamps each key; the monitor's own latency is in every figure alike.

Usage: speechd.py OTC_PROMPT_BINARY [REPETITIONS]   (PULSE_SERVER: a null sink named otc, see run.sh)
"""
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

sys.argv += [] if len(sys.argv) > 1 else ["../.build/release/otc-prompt"]
from whole_process import ENV, Session, median_line  # noqa: E402 (reads sys.argv)

BINARY = sys.argv[1]
REPS = int(sys.argv[2]) if len(sys.argv) > 2 else 15
RATE = 16000
LOUD = 300  # |sample| above this is sound (the null sink is exactly 0 when nothing plays)


class Monitor:
    """The null sink's monitor, sample by sample, each with the time it was played (approximately:
    the arrival time of its fragment, less the samples after it in that fragment)."""

    def __init__(self):
        self.process = subprocess.Popen(
            ["parec", "-d", "otc.monitor", "--format=s16le", f"--rate={RATE}", "--channels=1", "--latency-msec=5"],
            stdout=subprocess.PIPE, env=ENV_PULSE)
        self.loud = []  # (time ns) of each 1 ms block with sound
        self.quiet_since = 0
        self.lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()
        time.sleep(0.5)

    def _read(self):
        fd = self.process.stdout.fileno()
        while True:
            data = os.read(fd, 320)
            arrived = time.monotonic_ns()
            if not data:
                return
            samples = memoryview(data).cast("h")
            count = len(samples)
            block = RATE // 1000
            with self.lock:
                for start in range(0, count - block + 1, block):
                    if max(abs(x) for x in samples[start:start + block]) > LOUD:
                        self.loud.append(arrived - (count - start) * 1_000_000_000 // RATE)

    def onset_after(self, t, timeout=5.0):
        """The first sound played after t."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                later = [s for s in self.loud if s > t]
            if later:
                return later[0]
            time.sleep(0.002)
        raise TimeoutError("no sound")

    def last_sound(self, after, quiet_ms=400, timeout=15.0):
        """Waits until the sink has been quiet for quiet_ms; returns the last sound after `after`."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                last = self.loud[-1] if self.loud else 0
            if time.monotonic_ns() - max(last, after) > quiet_ms * 1_000_000:
                return last if last > after else None
            time.sleep(0.01)
        raise TimeoutError("never quiet")

    def stop(self):
        self.process.kill()


def start_speechd(directory):
    configuration = os.path.join(directory, "conf")
    shutil.copytree("/etc/speech-dispatcher", configuration)
    with open(os.path.join(configuration, "speechd.conf"), "a") as file:
        file.write('\nAddModule "espeak-ng" "sd_espeak-ng" "espeak-ng.conf"\nDefaultModule espeak-ng\n'
                   'AudioOutputMethod "pulse"\n')
    os.makedirs(os.path.join(directory, "logs"))
    path = os.path.join(directory, "speechd.sock")
    server = subprocess.Popen(
        ["speech-dispatcher", "-s", "-t", "0", "-C", configuration, "-S", path, "-L", directory + "/logs",
         "-P", directory + "/speechd.pid"],
        env=dict(ENV_PULSE, HOME=directory, XDG_RUNTIME_DIR=directory),
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            ssip(path).close()
            return server, path
        except OSError:
            time.sleep(0.05)
    server.kill()
    raise RuntimeError("speech-dispatcher did not start")


class ssip:
    """A raw SSIP client: the floor under any client."""

    def __init__(self, path):
        self.socket = socket.socket(socket.AF_UNIX)
        self.socket.connect(path)
        self.file = self.socket.makefile("rb")

    def request(self, data):
        self.socket.sendall(data)
        while True:
            line = self.file.readline().decode()
            if line[:1] != "7" and line[3] == " ":
                return line

    def close(self):
        self.socket.close()


def wait_quiet(monitor, since):
    monitor.last_sound(since)


def main():
    global ENV_PULSE
    ENV_PULSE = dict(os.environ)
    work = tempfile.mkdtemp(prefix="otc-bench-speechd-")
    server, path = start_speechd(work)
    env = dict(ENV, SPEECHD_ADDRESS=f"unix_socket:{path}")
    version = subprocess.run(["speech-dispatcher", "-v"], capture_output=True, text=True).stdout.splitlines()[0]
    monitor = Monitor()
    try:
        print(f"\n12. speech-dispatcher ({version}, espeak-ng module, pulse -> null sink), {REPS} runs each")
        print("    sound = the null sink's monitor (parec, 5 ms fragments), the same path for every row")
        key_figures(monitor, env, path)
        cancel_figures(monitor, env, path)
        final_figures(monitor, env, path)
    finally:
        monitor.stop()
        server.terminate()
        server.wait(5)
        shutil.rmtree(work, ignore_errors=True)


def per_key(monitor, argv, env, count):
    """Key (digit, Backspace, ...) on an idle prompt -> first sound; the previous announcement has ended."""
    session = Session(argv, env=env)
    wait_quiet(monitor, monitor.onset_after(session.started, timeout=10))
    figures = []
    for index in range(count):
        pressed = session.type(b"9" if index % 2 == 0 else b"\x7f")
        onset = monitor.onset_after(pressed)
        figures.append((onset - pressed) / 1e6)
        wait_quiet(monitor, onset)
    session.type(b"\x03")
    session.finish()
    return figures


def key_figures(monitor, env, path):
    count = max(6, REPS)
    speechd = per_key(monitor, [BINARY, "--speech", "speechd", "--no-auto-submit"], env, count)
    direct = per_key(monitor, [BINARY, "--speech", "espeak", "--no-auto-submit"], env, count)
    raw, spd_say = [], []
    client = ssip(path)
    client.request(b"SET self CLIENT_NAME bench:raw:main\r\nSET self PRIORITY important\r\n")
    for _ in range(count):
        pressed = time.monotonic_ns()
        client.request(b"SPEAK\r\n")
        client.request(b"9\r\n.\r\n")
        onset = monitor.onset_after(pressed)
        raw.append((onset - pressed) / 1e6)
        wait_quiet(monitor, onset)
        pressed = time.monotonic_ns()
        subprocess.Popen(["spd-say", "9"], env=env)
        onset = monitor.onset_after(pressed)
        spd_say.append((onset - pressed) / 1e6)
        wait_quiet(monitor, onset)
    client.close()
    median_line("otc-prompt --speech speechd: key -> first sound", speechd, target="median <= 25 ms")
    median_line("otc-prompt --speech espeak (direct): key -> first sound", direct)
    median_line("anchor spd-say 9 (libspeechd; exec -> first sound)", spd_say)
    median_line("anchor raw SSIP SPEAK \"9\" on an open connection -> first sound", raw)


def cancel_figures(monitor, env, path):
    """A key (or Ctrl-C) while our long readback plays -> the stale speech stops."""
    new_key, by_signal, anchor = [], [], []
    seamless = 0  # the new announcement followed the cut with no gap of 15 ms to time it by
    for _ in range(REPS):
        session = Session([BINARY, "--speech", "speechd", "--no-auto-submit"], env=env)
        wait_quiet(monitor, monitor.onset_after(session.started, timeout=10))
        session.type(b"98539")
        time.sleep(0.2)
        wait_quiet(monitor, time.monotonic_ns() - 150_000_000)
        session.type(b"\x12")  # the readback: ~2.5 s of speech
        time.sleep(0.6)
        pressed = session.type(b"\x7f")  # "deleted 9" supersedes it
        onset = new_speech_onset(monitor, pressed)
        if onset is None:
            seamless += 1
        else:
            new_key.append((onset - pressed) / 1e6)
        wait_quiet(monitor, pressed)
        session.type(b"\x12")
        time.sleep(0.6)
        # A signal: the prompt cancels (CANCEL self) and says nothing more.
        signalled = time.monotonic_ns()
        session.process.terminate()
        session.finish()
        last = monitor.last_sound(signalled)
        by_signal.append(((last or signalled) - signalled) / 1e6)
    for _ in range(REPS):
        subprocess.Popen(["spd-say", "-w", "9 8 5, 3 9 1. All 6. 9 8 5, 3 9 1."], env=env)
        monitor.onset_after(time.monotonic_ns() - 10_000_000)
        time.sleep(0.6)
        pressed = time.monotonic_ns()
        subprocess.run(["spd-say", "-C"], env=env)
        last = monitor.last_sound(pressed)
        anchor.append(((last or pressed) - pressed) / 1e6)
    if new_key:
        median_line("otc-prompt --speech speechd: key during the readback -> its announcement heard after the cut "
                    "(one message plays at a time: the stale one is silenced before)", new_key,
                    target="median <= 60 ms")
    print(f"   ({seamless} of {REPS} switches had no 15 ms gap to time them by)")
    median_line("otc-prompt --speech speechd: SIGTERM during the readback -> last stale sound", by_signal,
                target="median <= 60 ms")
    median_line("anchor spd-say -C (CANCEL all, libspeechd) -> last sound", anchor)


def new_speech_onset(monitor, pressed):
    """The first sound after a gap of >= 15 ms that follows `pressed`: the cut, then the new speech.
    (Digits in the readback are 9 8 5..., each followed by a longer pause; 'deleted 9' begins with a
    consonant: the gap is the cut.)"""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        with monitor.lock:
            after = [s for s in monitor.loud if s > pressed]
        for previous, current in zip([pressed] + after, after):
            if current - previous >= 15_000_000:
                return current
        if after and time.monotonic_ns() - after[-1] > 500_000_000:
            return None  # the speech ended without such a gap
        time.sleep(0.005)
    return None


def final_figures(monitor, env, path):
    exits, idle_exits, tails, alone, bursts = [], [], [], [], []
    # The final announcement alone, for reference: "1, code complete" through the same server.
    for _ in range(REPS):
        started = time.monotonic_ns()
        subprocess.run(["spd-say", "-w", "-P", "important", "1, code complete"], env=env)
        onset = monitor.onset_after(started)
        alone.append((monitor.last_sound(onset) - onset) / 1e6)
    for _ in range(REPS):
        session = Session([BINARY, "--speech", "speechd"], env=env)
        wait_quiet(monitor, monitor.onset_after(session.started, timeout=10))
        for digit in b"98539":
            session.type(bytes([digit]))
            time.sleep(0.05)
        pressed = session.type(b"1")
        status, ended, _, output = session.finish()
        assert status == 0 and output == b"985391\n", (status, output)
        exits.append((ended - pressed) / 1e6)
        onset = monitor.onset_after(pressed)
        tails.append((monitor.last_sound(onset) - pressed) / 1e6)
    # The same, the fifth digit's echo over before the final key: nothing of ours to cancel.
    for _ in range(REPS):
        session = Session([BINARY, "--speech", "speechd"], env=env)
        wait_quiet(monitor, monitor.onset_after(session.started, timeout=10))
        session.type(b"98539")
        time.sleep(0.2)
        wait_quiet(monitor, time.monotonic_ns() - 150_000_000)
        pressed = session.type(b"1")
        status, ended, _, output = session.finish()
        assert status == 0 and output == b"985391\n", (status, output)
        idle_exits.append((ended - pressed) / 1e6)
        wait_quiet(monitor, pressed)
    # A burst: six keys 50 ms apart, each sent as it comes.
    for _ in range(REPS):
        session = Session([BINARY, "--speech", "speechd"], env=env)
        wait_quiet(monitor, monitor.onset_after(session.started, timeout=10))
        pressed = 0
        for digit in b"985391":
            pressed = session.type(bytes([digit]))
            time.sleep(0.05)
        session.finish()
        bursts.append((monitor.last_sound(pressed) - pressed) / 1e6)
    reference = statistics.median(alone)
    median_line("\"1, code complete\" alone (spd-say -w), first -> last sound", alone)
    median_line("otc-prompt --speech speechd: final key 50 ms after the fifth -> process exit (CANCEL self first)",
                exits, target="<= 50 ms")
    median_line("otc-prompt --speech speechd: final key after the fifth's echo ended -> process exit", idle_exits,
                target="<= 50 ms")
    median_line("otc-prompt --speech speechd: final key -> last sound of the final announcement (after exit)",
                tails, target=f">= {reference:.0f} ms: heard in full")
    median_line("otc-prompt --speech speechd: burst of 6 keys 50 ms apart, last key -> last sound", bursts,
                target=f"<= {reference + 100:.0f} ms (its own announcement + 100 ms)")


if __name__ == "__main__":
    main()
