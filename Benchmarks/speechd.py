#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""the speech-dispatcher targets' figures: otc-prompt through a real speech-dispatcher, side by side in one run with
speech-dispatcher's own client (spd-say, through libspeechd), a raw SSIP client (the floor) and
the direct espeak-ng backend. Everything is measured where the user hears it: the null sink's
monitor, recorded with parec (16 kHz, 5 ms fragments) and stamped on arrival with the same
monotonic clock that stamps each key; the monitor's own latency is in every figure alike. The
stale-speech rows record the same monitor at the sink's own 44.1 kHz, every sample kept, and find
where our stale readback stopped by comparing the recording with uncut references of the same
readback (stale_cut.py): the stale words and the announcement after them are one sound on the sink.
Validated in the same run on cuts whose place is known (SIGTERM: nothing follows; splices).

Usage: speechd.py OTC_PROMPT_BINARY [REPETITIONS]   (PULSE_SERVER: a null sink named otc, see run.sh)
OTC_BENCH_SPEECHD=keys,cancel,final (default all) runs some groups; OTC_STALE_DUMP=FILE.npz keeps the
stale-speech recordings and references for stale_cut.py offline.
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
import bisect
import random

import numpy

sys.argv += [] if len(sys.argv) > 1 else ["../.build/release/otc-prompt"]
from whole_process import ENV, Session, median_line  # noqa: E402 (reads sys.argv)
import stale_cut  # noqa: E402

BINARY = sys.argv[1]
REPS = int(sys.argv[2]) if len(sys.argv) > 2 else 15
RATE = 16000
LOUD = 300  # |sample| above this is sound (the null sink is exactly 0 when nothing plays)


class SinkMonitor:
    """parec on the null sink's monitor at `rate` with 5 ms fragments, on a thread of its own: each read is
    handed to `take` (under `lock`) with its arrival time."""

    def __init__(self, rate, read_size):
        self.lock = threading.Lock()
        self.process = subprocess.Popen(
            ["parec", "-d", "otc.monitor", "--format=s16le", f"--rate={rate}", "--channels=1", "--latency-msec=5"],
            stdout=subprocess.PIPE, env=ENV_PULSE)
        threading.Thread(target=self._read, args=(read_size,), daemon=True).start()
        time.sleep(0.5)

    def _read(self, read_size):
        fd = self.process.stdout.fileno()
        while True:
            data = os.read(fd, read_size)
            arrived = time.monotonic_ns()
            if not data:
                return
            with self.lock:
                self.take(data, arrived)

    def take(self, data, arrived):
        raise NotImplementedError

    def stop(self):
        self.process.kill()


class Monitor(SinkMonitor):
    """The null sink's monitor, sample by sample, each with the time it was played (approximately:
    the arrival time of its fragment, less the samples after it in that fragment)."""

    def __init__(self):
        self.loud = []  # (time ns) of each 1 ms block with sound
        super().__init__(RATE, 320)

    def take(self, data, arrived):
        samples = memoryview(data).cast("h")
        count = len(samples)
        block = RATE // 1000
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


class Recorder(SinkMonitor):
    """The null sink's monitor at the sink's own rate (44.1 kHz, no resampling in the recorder), every
    sample kept, so that a stretch can be compared with a reference (stale_cut.py). Sample i was played
    at about arrival(its fragment) - (samples after it in the fragment) / RATE, as in Monitor."""

    def __init__(self):
        self.data = bytearray()
        self.ends, self.arrivals = [], []  # per read: samples so far, its arrival time
        super().__init__(stale_cut.RATE, 4096)

    def take(self, data, arrived):
        self.data += data
        self.ends.append(len(self.data) // 2)
        self.arrivals.append(arrived)

    def now(self):
        """The index of the next sample to arrive."""
        with self.lock:
            return len(self.data) // 2

    def samples(self, start, end):
        with self.lock:
            return numpy.frombuffer(bytes(self.data[2 * start:2 * end]), dtype=numpy.int16)

    def time_of(self, index):
        """When sample `index` was played (ns, time.monotonic_ns's clock)."""
        with self.lock:
            read = bisect.bisect_right(self.ends, index)
            return self.arrivals[read] - (self.ends[read] - index) * 1_000_000_000 // stale_cut.RATE

    def sounding(self, start, end):
        """The stretch from the first to the last nonzero sample in [start, end), as (start, end)."""
        nonzero = numpy.flatnonzero(self.samples(start, end))
        return (start + int(nonzero[0]), start + int(nonzero[-1]) + 1) if len(nonzero) else None


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
    recorder = Recorder()
    try:
        print(f"\n12. speech-dispatcher ({version}, espeak-ng module, pulse -> null sink), {REPS} runs each")
        print("    sound = the null sink's monitor (parec, 5 ms fragments), the same path for every row")
        groups = os.environ.get("OTC_BENCH_SPEECHD", "keys,cancel,final").split(",")
        if "keys" in groups:
            key_figures(monitor, env, path)
        if "cancel" in groups:
            cancel_figures(monitor, recorder, env, path)
        if "final" in groups:
            final_figures(monitor, env, path)
    finally:
        monitor.stop()
        recorder.stop()
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


def readback_session(monitor, env):
    """A prompt through speech-dispatcher with 98539 typed, its echoes over."""
    session = Session([BINARY, "--speech", "speechd", "--no-auto-submit"], env=env)
    wait_quiet(monitor, monitor.onset_after(session.started, timeout=10))
    session.type(b"98539")
    time.sleep(0.2)
    wait_quiet(monitor, time.monotonic_ns() - 150_000_000)
    return session


def record(monitor, recorder, action, then=None, delay=0.0):
    """Does action (writes a key), waits delay, does then; returns the samples from the start of the
    sound action caused to the end of everything after, the index they start at, and then's time."""
    begin = recorder.now()
    started = action()
    at = None
    if then is not None:
        time.sleep(delay)
        at = then()
    wait_quiet(monitor, at or started)
    time.sleep(0.05)
    stretch = recorder.sounding(begin, recorder.now())
    return recorder.samples(*stretch), stretch[0], at


def cancel_figures(monitor, recorder, env, path):
    """A key (or a signal) while our long readback plays -> its last stale sound on the sink. Each
    key, signal and anchor cut comes at a random moment 0.5-1.2 s into the readback; one that comes
    in a pause of it is followed by no stale sound at all (0 ms heard) and is counted apart."""
    # References: the readback played out uncut (three), one more and a key's announcement alone
    # for the validation below.
    session = readback_session(monitor, env)
    references = [record(monitor, recorder, lambda: session.type(b"\x12"))[0] for _ in range(4)]
    deleted_alone = record(monitor, recorder, lambda: session.type(b"\x7f"))[0]
    session.type(b"\x03")
    session.finish()
    references, spare = references[:3], references[3]
    kept = {}
    by_key, new_onsets, by_signal, signal_error, anchor, unresolved, in_pause = [], [], [], [], [], 0, 0
    for _ in range(REPS):
        session = readback_session(monitor, env)
        # A key during the readback, at a different place each time: "deleted 9" supersedes it.
        samples, first, pressed = record(monitor, recorder, lambda: session.type(b"\x12"),
                                         lambda: session.type(b"\x7f"), random.uniform(0.5, 1.2))
        stale, other, _ = stale_cut.stale_end(samples, references)
        kept[f"key{len(kept)}"] = samples
        if stale is None or other is None:
            unresolved += 1
        else:
            by_key.append((recorder.time_of(first + stale) - pressed) / 1e6)
            new_onsets.append((recorder.time_of(first + other) - pressed) / 1e6)
            if by_key[-1] <= 0:  # the key came in a pause and the stale words never resumed
                in_pause += 1
        session.type(b"9")  # 98539 again: the same readback
        time.sleep(0.2)
        wait_quiet(monitor, time.monotonic_ns() - 150_000_000)
        # A signal: the prompt cancels (CANCEL self) and says nothing more; the last sound is the
        # stale speech's end, known without the references: what the method must find.
        samples, first, signalled = record(monitor, recorder, lambda: session.type(b"\x12"),
                                           lambda: (time.monotonic_ns(), session.process.terminate())[0],
                                           random.uniform(0.5, 1.2))
        session.finish()
        by_signal.append((recorder.time_of(first + len(samples)) - signalled) / 1e6)
        stale, _, _ = stale_cut.stale_end(samples, references)
        kept[f"signal{len(kept)}"] = samples
        signal_error.append((stale - len(samples)) * 1000 / stale_cut.RATE if stale else float("nan"))
    for _ in range(REPS):  # the anchor, timed to its last sound exactly as the SIGTERM row
        samples, first, pressed = record(
            monitor, recorder,
            lambda: subprocess.Popen(["spd-say", "-w", "9 8 5, 3 9 1. All 6. 9 8 5, 3 9 1."], env=env) and 0,
            lambda: (time.monotonic_ns(), subprocess.run(["spd-say", "-C"], env=env))[0], random.uniform(0.5, 1.2))
        anchor.append((recorder.time_of(first + len(samples)) - pressed) / 1e6)
    if os.environ.get("OTC_STALE_DUMP"):  # every recording, for stale_cut.py offline
        numpy.savez(os.environ["OTC_STALE_DUMP"], spare=spare, deleted=deleted_alone, reference0=references[0],
                    reference1=references[1], reference2=references[2], **kept)
    spliced = splice_errors(spare, deleted_alone, references)
    sounding = [f for f in by_key if f > 0]
    if sounding:
        median_line("otc-prompt --speech speechd: key during the readback -> last stale sound (stale_cut.py)",
                    sounding, target="median <= 60 ms")
        median_line("  ... and -> first sound of its own announcement (\"deleted 9\", the former upper bound)",
                    [n for f, n in zip(by_key, new_onsets) if f > 0])
    print(f"   ({in_pause} of {REPS} keys came in a pause: no stale sound after them; {unresolved} not resolved)")
    median_line("otc-prompt --speech speechd: SIGTERM during the readback -> last stale sound",
                [f for f in by_signal if f > 0], target="median <= 60 ms")
    print(f"   ({sum(1 for f in by_signal if f <= 0)} of {REPS} signals came in a pause)")
    median_line("anchor spd-say -C (CANCEL all, libspeechd) -> last sound", [f for f in anchor if f > 0])
    print(f"   ({sum(1 for f in anchor if f <= 0)} of {REPS} came in a pause)")
    print_errors("validation, SIGTERM cuts: found - true end of the sound", signal_error)
    print_errors("validation, spliced cuts (readback + \"deleted 9\" at a known sample): found - true", spliced)


def splice_errors(stale, new, references, count=60):
    """The method on cuts whose place is known: the uncut readback `stale` (not a reference) up to a
    random sample, then after 0-10 ms of silence (or none) the announcement `new`."""
    errors = []
    generator = random.Random(12)
    for _ in range(count):
        cut = generator.randrange(int(0.3 * stale_cut.RATE), len(stale) - stale_cut.RATE // 2)
        gap = generator.choice([0, 0, generator.randrange(1, stale_cut.RATE // 100)])
        samples = numpy.concatenate([stale[:cut], numpy.zeros(gap, dtype=numpy.int16), new])
        nonzero = numpy.flatnonzero(stale[:cut])
        truth = int(nonzero[-1]) + 1  # the last stale sound (the cut may fall in a pause)
        found, _, _ = stale_cut.stale_end(samples, references)
        errors.append((found - truth) * 1000 / stale_cut.RATE if found else float("nan"))
    return errors


def print_errors(name, errors):
    missed = sum(1 for e in errors if e != e)
    errors = sorted(e for e in errors if e == e)
    if not errors:
        print(f"{name}: nothing found ({missed} missed)")
        return
    within = sum(1 for e in errors if abs(e) <= 2)
    print(f"{name}: median {statistics.median(errors):+.2f} ms, min {errors[0]:+.2f}, max {errors[-1]:+.2f}, "
          f"within 2 ms {within} of {len(errors) + missed}, missed {missed}", flush=True)


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
