#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The password agent beside systemd's own, in one run (docs/performance.md, "The password agent"):
ask file written -> the agent's first byte on its terminal, -> the first sample handed to the sink (otc-prompt, with
--speech espeak on the run's null sink), the same once otc-prompt's agent has renewed itself after its wait (no voice
loaded: what a request meets after a quiet moment), and idle: context switches over 10 s and resident memory.

Both agents watch /run/systemd/ask-password, in turn, each on its own pty: systemd 252's
`systemd-tty-ask-password-agent --watch` can watch no other directory. So that no other program's request is seen
(or answered) and nothing is left behind, the script runs itself in a mount namespace of its own with a fresh
tmpfs on that directory: the machine's directory is never written. Needs root (unshare, mount).

The timed part is Benchmarks/ask_latency.c (rename the prepared ask file into place, poll the pty master): no Python
between the two instants. The harness is the querier: its own datagram socket, its own PID in the file; it types
the answer, reads it from the socket, then removes both files, as systemd-ask-password does.

Usage: agent.py OTC_PROMPT_BINARY [REPETITIONS]   (REPETITIONS >= 20 requests per agent; PULSE_SERVER: a null sink)
otc-prompt's agent is measured when its --help lists --agent; else only the reference runs.
"""
import os
import socket
import statistics
import subprocess
import sys
import time

SYSTEM_DIRECTORY = "/run/systemd/ask-password"
NAMESPACE_MARK = "OTC_BENCH_AGENT_NAMESPACE"

if os.environ.get(NAMESPACE_MARK) != "1" and os.geteuid() != 0:
    print("agent: needs root (a mount namespace with a private /run/systemd/ask-password); skipped")
    sys.exit(0)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "packaging"))
import ask_namespace  # noqa: E402 (packaging's)

ask_namespace.enter(SYSTEM_DIRECTORY, NAMESPACE_MARK, "otc-bench", "4m")

from whole_process import ENV, WORK, Session, median_line, ms, trace_path  # noqa: E402 (after the namespace)

BINARY = sys.argv[1]
REPS = max(20, int(sys.argv[2]) if len(sys.argv) > 2 else 20)
BLOCK = 5
# Requests made once the agent has renewed itself: each waits for the wait before it to be heard (~4 s).
RENEWED_REPS = 10
ANSWER = b"correct horse"
MESSAGE = "Passphrase for the benchmark"


def launcher():
    """Benchmarks/ask_latency.c, compiled once per run."""
    path = os.path.join(WORK, "ask_latency")
    if not os.path.exists(path):
        source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ask_latency.c")
        subprocess.run(["gcc", "-O2", "-o", path, source], check=True)
    return path


def quiet(session, seconds, timeout=10.0):
    """Reads the terminal until it has shown nothing for `seconds`."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        before = len(session.screen)
        session.pump(seconds)
        if len(session.screen) == before:
            return
    raise TimeoutError("the agent's terminal never went quiet")


def task_counters(pid):
    """Voluntary + involuntary context switches of each thread of `pid` ({"TID name": count}), and (VmRSS, VmHWM)
    in KiB."""
    switches = {}
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/status") as file:
            for line in file:
                if line.startswith("Name:"):
                    name = f"{task} {line.split(maxsplit=1)[1].strip()}"
                if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                    switches[name] = switches.get(name, 0) + int(line.split()[1])
    memory = {}
    with open(f"/proc/{pid}/status") as file:
        for line in file:
            key = line.split(":")[0]
            if key in ("VmRSS", "VmHWM"):
                memory[key] = int(line.split()[1])
    return switches, memory["VmRSS"], memory["VmHWM"]


def renewals(session):
    """How many times the agent has renewed itself (`renewed` events: its wait heard, its voice let go, the program
    executed again without the voice's libraries)."""
    return sum(1 for kind, _, _ in session.events() if kind == "renewed")


def wait_for_renewal(session, count, timeout=20.0):
    """Waits until the agent has renewed itself `count` times; False when it did not within `timeout`."""
    deadline = time.monotonic() + timeout
    while renewals(session) < count:
        if time.monotonic() > deadline:
            return False
        session.pump(0.05)
    return True


def idle(session, seconds=10.0, traced=False):
    """Context switches while nothing is asked for `seconds`, then resident memory. A traced agent is idle once it
    has renewed itself (the `renewed` event, after the wait has been heard and its voice let go); the screen alone
    would start the count while the wait is still being said."""
    quiet(session, 0.5)
    if traced and not wait_for_renewal(session, 1):
        print("   the agent never renewed itself (no `renewed` event): measured while it holds its voice")
    before, _, _ = task_counters(session.process.pid)
    time.sleep(seconds)
    after, rss, hwm = task_counters(session.process.pid)
    woken = {name: count - before.get(name, 0) for name, count in after.items() if count != before.get(name, 0)}
    return woken, rss, hwm, len(after)


def first_sample_after(session, seen, timeout=10.0):
    """The time of the first `sample` event among those traced after the first `seen`."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for kind, _, t in session.events()[seen:]:
            if kind == "sample":
                return t
        session.pump(0.002)
    raise TimeoutError("the agent handed no sample to the sink")


def ask(session, number, traced):
    """One request: (ask file written -> first byte, -> first sample or None), answered and cleaned up."""
    name = f"{os.getpid()}-{number}"
    socket_path = os.path.join(SYSTEM_DIRECTORY, f"sck.bench-{name}")
    ask_path = os.path.join(SYSTEM_DIRECTORY, f"ask.bench-{name}")
    prepared = os.path.join(SYSTEM_DIRECTORY, f".prepared-{name}")
    querier = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    querier.bind(socket_path)
    try:
        with open(prepared, "w") as file:
            file.write(f"[Ask]\nPID={os.getpid()}\nSocket={socket_path}\nAcceptCached=0\nEcho=0\nNotAfter=0\n"
                       f"Message={MESSAGE}\nId=bench:{number}\n")
        quiet(session, 0.2)
        # Each request is a session of its own, whose announcements count from 1 again: the request's first
        # sample is the first one traced after the rename, whatever its number.
        seen = len(session.events()) if traced else 0
        timed = subprocess.run([launcher(), str(session.master), prepared, ask_path], pass_fds=(session.master,),
                               capture_output=True, text=True, timeout=15)
        if timed.returncode != 0:
            raise RuntimeError(f"ask_latency: {timed.stderr.strip()}")
        renamed, first_byte = map(int, timed.stdout.split())
        sound = None
        if traced:
            sound = ms(first_sample_after(session, seen) - renamed)
        # Typed once the question is on the screen and the terminal is quiet: keys typed ahead are not answers.
        deadline = time.monotonic() + 10
        while MESSAGE.encode() not in session.screen[-4096:] and time.monotonic() < deadline:
            session.pump(0.01)
        quiet(session, 0.3)
        session.type(ANSWER + b"\r")
        querier.settimeout(10)
        answer = querier.recv(4096)
        # systemd's agent ends each password with a NUL (several may be sent, NUL-separated).
        if answer.rstrip(b"\0") != b"+" + ANSWER:
            raise RuntimeError(f"the agent answered {answer!r}, not the typed passphrase (a test one)")
        return ms(first_byte - renamed), sound
    finally:
        querier.close()
        for path in (ask_path, socket_path, prepared):
            if os.path.lexists(path):
                os.unlink(path)


def start(agent):
    label, argv, traced = agent
    env = dict(ENV, XDG_RUNTIME_DIR=os.path.join(WORK, "runtime"))
    os.makedirs(env["XDG_RUNTIME_DIR"], mode=0o700, exist_ok=True)
    session = Session(argv, trace=trace_path("agent-trace") if traced else None, env=env)
    quiet(session, 0.5)
    return session


def after_renewal(agent, count):
    """`count` requests each made once the agent has renewed itself after the last (nothing of its voice loaded):
    (first bytes, first samples) in ms."""
    session = start(agent)
    bytes_, sounds = [], []
    try:
        for number in range(count):
            if not wait_for_renewal(session, number + 1):
                raise TimeoutError("the agent did not renew itself after its wait")
            byte, sound = ask(session, 10000 + number, True)
            bytes_.append(byte)
            sounds.append(sound)
    finally:
        stop(session)
    return bytes_, sounds


def stop(session):
    session.process.terminate()
    session.finish()


def main():
    agents = [("systemd-tty-ask-password-agent --watch (systemd 252)", ["systemd-tty-ask-password-agent", "--watch"],
               False)]
    helped = subprocess.run([BINARY, "--help"], capture_output=True, text=True)
    if "--agent" in helped.stdout + helped.stderr:
        agents.append(("otc-prompt --agent --speech espeak",
                       [BINARY, "--agent", "--agent-directory", SYSTEM_DIRECTORY, "--speech", "espeak"], True))
    else:
        print(f"   {BINARY} has no --agent: only the reference agent is measured")
    print(f"\nA. password agents: ask file renamed into {SYSTEM_DIRECTORY} -> the agent's first byte on its pty "
          f"(and -> first sample to the sink), {REPS} requests each, in turns of {BLOCK}; then 10 s idle")
    first_byte = {agent[0]: [] for agent in agents}
    first_sound = {agent[0]: [] for agent in agents}
    idled = {}
    number = 0
    for block in range(-(-REPS // BLOCK)):
        for agent in agents:
            label, _, traced = agent
            session = start(agent)
            try:
                if block == 0:
                    idled[label] = idle(session, traced=traced)
                for _ in range(min(BLOCK, REPS - block * BLOCK)):
                    number += 1
                    byte, sound = ask(session, number, traced)
                    first_byte[label].append(byte)
                    if sound is not None:
                        first_sound[label].append(sound)
            finally:
                stop(session)
    renewed = {}
    for agent in agents:
        if agent[2]:
            renewed[agent[0]] = after_renewal(agent, RENEWED_REPS)
    medians = {}
    for label, _, traced in agents:
        values = sorted(first_byte[label])
        medians[label] = median_line(f"{label}: ask file -> first byte on the pty", values)
        print(f"   spread: max {values[-1]:.2f} ms, stdev {statistics.stdev(values):.2f}")
        if traced:
            median_line(f"{label}: ask file -> first sample handed to the sink", first_sound[label])
        if label in renewed:
            byte, sound = renewed[label]
            median_line(f"{label}, renewed (no voice loaded): ask file -> first byte on the pty", sorted(byte))
            median_line(f"{label}, renewed (no voice loaded): ask file -> first sample handed to the sink", sound)
        switches, rss, hwm, threads = idled[label]
        print(f"{label}: idle 10 s: {sum(switches.values())} context switches ({threads} threads; target 0 wakes), "
              f"VmRSS {rss / 1024:.2f} MiB, VmHWM {hwm / 1024:.2f} MiB  target RSS <= 8 MiB", flush=True)
        if switches:
            print("   of which, by thread: " + ", ".join(f"{name} {count}" for name, count in sorted(switches.items())))
    if len(agents) == 2:
        reference, ours = (medians[label] for label, _, _ in agents)
        print(f"   ratio first byte otc-prompt / systemd's agent: {ours / reference:.2f} (target <= 1)")


if __name__ == "__main__":
    main()
