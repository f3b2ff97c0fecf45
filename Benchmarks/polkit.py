#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The polkit agent beside pkttyagent, in one run (docs/performance.md, "The polkit agent beside pkttyagent").

Each agent answers `pkexec --disable-internal-agent /usr/bin/id -u` run by a throwaway user at an interactive shell
on a pty, as the tests set it up (Tests/fixtures/private-polkit/namespace.sh): in a mount namespace of its own
(`unshare -m`), a system bus on a tmpfs over /run/dbus (pkexec is setuid and ignores DBUS_SYSTEM_BUS_ADDRESS), polkitd
on it, an asker and an admin its own admin rule names, made with useradd and removed with userdel. Agents
take turns in blocks of 5 requests, each block in a fresh namespace; every request is answered with the admin's
password once the question is on the screen.

Figures, per request:
- Enter on pkexec's command line -> the question on the pty ("as the super user"; pkttyagent's "Password: ");
- otc-prompt only, from its OTC_PROMPT_TRACE: `polkit-request` (BeginAuthentication received) -> the first `sample`
  handed to the null sink (the first sound);
- question heard: that, plus the question (the speech log's `lead` of the request's opening) in seconds of audio,
  as espeak-ng's CLI says it at the default rate, leading and trailing silence cut.
otc-prompt speaks with `--speech espeak` into a private PulseAudio null sink the asker owns. Needs root.

Usage: polkit.py OTC_PROMPT_BINARY [REPETITIONS]   (REPETITIONS >= 10 requests per agent)
"""
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import wave

if os.geteuid() != 0 or not shutil.which("pkexec") or not os.path.exists("/usr/lib/polkit-1/polkitd"):
    print("polkit: needs root, pkexec and polkitd (a private system bus in a mount namespace); skipped")
    sys.exit(0)

from whole_process import Session  # noqa: E402

BINARY = os.path.abspath(sys.argv[1])
REPS = max(10, int(sys.argv[2]) if len(sys.argv) > 2 else 10)
BLOCK = 5
QUESTION = {"otc": b"To run id as root: password of", "pkttyagent": b"Password: "}
PKEXEC = b'uid=$(pkexec --disable-internal-agent /usr/bin/id -u); echo "uid=$uid status=$?"'
# The tests' private polkit: one script for both (Tests/fixtures/private-polkit/namespace.sh).
NAMESPACE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "fixtures", "private-polkit",
                         "namespace.sh")
CSI = re.compile(rb"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[=>78]|\r")


def visible(data):
    return CSI.sub(b"", data)


class User:
    """A throwaway account (useradd), removed with userdel by `remove`."""

    def __init__(self, scratch, admin=False):
        self.name = f"otcbench{os.getpid() % 100000}{'a' if admin else 'u'}"
        self.password = f"right-{os.urandom(6).hex()}"
        self.home = os.path.join(scratch, "home-" + self.name)
        subprocess.run(["/usr/sbin/useradd", "--create-home", "--home-dir", self.home, "--shell", "/bin/sh",
                        self.name], check=True)
        subprocess.run(["/usr/sbin/chpasswd"], input=f"{self.name}:{self.password}\n", text=True, check=True)

    def remove(self):
        subprocess.run(["/usr/sbin/userdel", "--remove", "--force", self.name], stderr=subprocess.DEVNULL)

    def as_me(self):
        return ["setpriv", f"--reuid={self.name}", f"--regid={self.name}", "--init-groups", "--"]


def start_pulse(asker):
    """A PulseAudio daemon of the asker's own with a null sink `otc`; returns its socket and pid file."""
    runtime = os.path.join(asker.home, "pulse")
    subprocess.run(asker.as_me() + ["mkdir", "-m", "700", runtime], check=True)
    socket = os.path.join(runtime, "native")
    subprocess.run(asker.as_me() + [
        "env", "-i", f"HOME={asker.home}", f"PULSE_RUNTIME_PATH={runtime}", "PATH=/usr/bin:/bin", "pulseaudio",
        "--daemonize=yes", "--exit-idle-time=-1", "-n", "--use-pid-file=yes", "--load=module-null-sink sink_name=otc",
        f"--load=module-native-protocol-unix socket={socket}"], check=True, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL)
    for _ in range(50):
        if os.path.exists(socket):
            break
        time.sleep(0.1)
    time.sleep(0.3)
    return socket, os.path.join(runtime, "pid")


def kill_from(path):
    try:
        pid = int(open(path).read().split()[0])
    except (OSError, ValueError, IndexError):
        return
    if pid > 1:
        try:
            os.kill(pid, 15)
        except ProcessLookupError:
            pass


class Namespace:
    """One private polkit (the fixture namespace.sh, as PrivatePolkit runs it) with the asker's `sh -i` on a pty."""

    def __init__(self, scratch, asker, admin, pulse_socket, block, pam_echo=None):
        """pam_echo: a line pam_echo says before the password, in a bind-mounted copy of polkit's PAM file."""
        self.scratch = os.path.join(scratch, f"block-{block}")
        os.mkdir(self.scratch)
        self.log = os.path.join(self.scratch, "polkitd.log")
        arguments = ["/usr/bin/unshare", "-m", NAMESPACE, self.scratch, asker.name, admin.name,
                     f"unix:{pulse_socket}"]
        if pam_echo:
            pam = os.path.join(self.scratch, "polkit-1")
            with open("/usr/lib/pam.d/polkit-1") as original, open(pam, "w") as copy:
                copy.write(original.read().replace(
                    "@include common-auth", f"auth optional pam_echo.so {pam_echo}\n@include common-auth"))
            arguments.append(pam)
        self.session = Session(arguments, env={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin"})

    def wait(self, predicate, timeout, what):
        deadline = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > deadline:
                raise TimeoutError(f"{what}; screen: {visible(self.session.screen[-600:])!r}")
            self.session.pump(0.002)
        return time.monotonic_ns()

    def registered(self):
        try:
            return "Registered Authentication Agent" in open(self.log).read()
        except OSError:
            return False

    def quiet(self, seconds):
        while True:
            before = len(self.session.screen)
            self.session.pump(seconds)
            if len(self.session.screen) == before:
                return

    def close(self):
        self.session.type(b"exit\r")
        try:
            self.session.finish(timeout=5)
        except TimeoutError:
            pass
        for name in ("polkitd.pid", "dbus.pid"):
            kill_from(os.path.join(self.scratch, name))


def lead_seconds(text, cache={}):
    """`text` as espeak-ng's CLI says it at the default rate, leading and trailing silence cut (seconds)."""
    if text not in cache:
        path = os.path.join(tempfile.gettempdir(), f"otc-bench-lead-{os.getpid()}.wav")
        subprocess.run(["espeak-ng", "-w", path, text], check=True)
        with wave.open(path) as audio:
            rate, frames = audio.getframerate(), audio.readframes(audio.getnframes())
        os.unlink(path)
        samples = memoryview(frames).cast("h")
        loud = [i for i in range(len(samples)) if abs(samples[i]) > 164]  # 0.5 % of full scale, as sox's cut
        cache[text] = (loud[-1] - loud[0]) / rate if loud else 0.0
    return cache[text]


def openings(speech_log):
    """The speech log's openings so far (one per request)."""
    try:
        with open(speech_log) as file:
            return [json.loads(line) for line in file if '"event": "prompt"' in line]
    except OSError:
        return []


def block(kind, scratch, asker, admin, pulse_socket, count, figures, number):
    space = Namespace(scratch, asker, admin, pulse_socket, number)
    trace = os.path.join(asker.home, f"trace-{number}")
    speech_log = os.path.join(asker.home, f"speech-{number}.jsonl")
    try:
        space.wait(lambda: space.session.screen.endswith(b"$ "), 20, "no shell prompt")
        if kind == "otc":
            command = (f"set +m; OTC_PROMPT_TRACE='{trace}' '{BINARY}' --polkit-agent --process $$ --speech espeak "
                       f"--speech-log '{speech_log}' &")
        else:
            command = "set +m; pkttyagent --process $$ &"
        space.session.type(command.encode() + b"\r")
        space.wait(space.registered, 20, "no agent registered")
        space.quiet(0.3)
        space.session.trace = trace if kind == "otc" else None
        for round_ in range(count):
            seen = len(space.session.screen)
            events = len(space.session.events())
            entered = space.session.type(PKEXEC + b"\r")
            shown = space.wait(lambda: QUESTION[kind] in visible(space.session.screen[seen:]), 20, "no question")
            figures[kind]["shown"].append((shown - entered) / 1e6)
            if kind == "otc":
                def after(name):
                    return [t for event, _, t in space.session.events()[events:] if event == name]
                space.wait(lambda: after("polkit-request") and [t for t in after("sample") if t > after(
                    "polkit-request")[0]], 10, "no sample after the request")
                request = after("polkit-request")[0]
                sample = min(t for t in after("sample") if t > request)
                space.wait(lambda: len(openings(speech_log)) > round_, 10, "no opening in the speech log")
                lead = openings(speech_log)[round_].get("lead") or openings(speech_log)[round_]["text"]
                figures[kind]["sound"].append((sample - request) / 1e6)
                figures[kind]["heard"].append((sample - request) / 1e6 + lead_seconds(lead) * 1000)
                figures[kind]["request"].append((request - entered) / 1e6)
                figures["lead"] = lead
            space.quiet(0.3)
            space.session.type(admin.password.encode() + b"\r")
            space.wait(lambda: b"uid=0 status=0" in space.session.screen[seen:], 20, "pkexec did not run")
            space.quiet(0.2)
    finally:
        space.close()


def line(name, values, target=""):
    values = sorted(values)
    p90 = values[min(len(values) - 1, -(-90 * len(values) // 100) - 1)]
    print(f"{name}: median {statistics.median(values):.2f} ms, p90 {p90:.2f}, min {values[0]:.2f}, "
          f"max {values[-1]:.2f} (n={len(values)})" + (f"  target {target}" if target else ""), flush=True)


def main():
    scratch = tempfile.mkdtemp(prefix="otc-bench-polkit-")
    os.chmod(scratch, 0o711)
    asker = admin = None
    pulse_pid = None
    try:
        asker, admin = User(scratch), User(scratch, admin=True)
        pulse_socket, pulse_pid = start_pulse(asker)
        figures = {"otc": {"shown": [], "sound": [], "heard": [], "request": []}, "pkttyagent": {"shown": []}}
        number = 0
        for start in range(0, REPS, BLOCK):
            for kind in ("pkttyagent", "otc"):
                number += 1
                block(kind, scratch, asker, admin, pulse_socket, min(BLOCK, REPS - start), figures, number)
        print(f"\nB. polkit agents: pkexec --disable-internal-agent /usr/bin/id -u by a throwaway user, {REPS} requests "
              f"each, in turns of {BLOCK}, each turn in a fresh private polkit")
        line("pkttyagent --process $$: Enter -> \"Password: \" on the pty", figures["pkttyagent"]["shown"])
        line("otc-prompt --polkit-agent --speech espeak: Enter -> the question on the pty", figures["otc"]["shown"])
        line("   of which Enter -> BeginAuthentication received (pkexec, polkitd)", figures["otc"]["request"])
        line("otc-prompt: BeginAuthentication -> first sample handed to the sink", figures["otc"]["sound"], "<= 50 ms")
        print(f"   the question (its lead, {lead_seconds(figures['lead']):.2f} s of audio): {figures['lead']!r}")
        line("otc-prompt: BeginAuthentication -> question heard", figures["otc"]["heard"], "<= 3000 ms")
    finally:
        if pulse_pid:
            kill_from(pulse_pid)
        for user in (asker, admin):
            if user:
                user.remove()
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
