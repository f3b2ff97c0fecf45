#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The openings' first sentence in seconds of audio (the question-first target), beside the whole opening.

Each opening comes from the real caller where one can run here: the prompt itself; askpass with the prompt texts sudo
and ssh pass; ssh-agent's confirmation (`ssh-add -c`, a signature asked by `ssh-keygen -Y sign`); gpg-agent's GETPIN
(`gpg --sign`) and CONFIRM (`gpg --delete-secret-keys`, and gpg-agent's own ssh-key confirmation, its strings sent
over Assuan); systemd-ask-password answered by `otc-prompt --agent` (as root, in a mount namespace of its own, as
Benchmarks/agent.py). Every run is silent (`--speech none`) with a speech log: the log's `lead` is the first sentence
as the voice is handed it (what is asked and how to answer), `said` (else `text`) the whole opening. Both are then
synthesised by the prompt's own espeak-ng backend at the default rate, leading and trailing silence trimmed
(`speech-benchmark --audio-seconds`). A build whose log has no `lead` (before the question-first openings) is measured
by its first sentence as written: up to the first full stop, question or exclamation mark.

Usage: openings.py OTC_PROMPT_BINARY SPEECH_BENCHMARK_BINARY
"""
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "packaging"))

BINARY = os.path.abspath(sys.argv[1])
SYNTHESIS = os.path.abspath(sys.argv[2])
ASK = "/run/systemd/ask-password"
if os.geteuid() == 0 and shutil.which("systemd-ask-password"):
    import ask_namespace  # noqa: E402  the agent's rows need the system directory, private

    ask_namespace.enter(ASK, "OTC_OPENINGS_NAMESPACE", "otc-openings", "1m")

WORK = tempfile.mkdtemp(prefix="otc-openings-")
ENV = dict(os.environ, HOME=WORK, XDG_CONFIG_HOME=WORK + "/config", LANG="C.UTF-8", TERM="xterm-256color")
ENV.pop("OTC_PROMPT_CONFIG", None)
TARGET = 3.0


def on_pty(argv, env=None, cwd=None):
    """A process on a fresh pty (its controlling terminal): (process, master)."""
    import fcntl
    import struct
    import termios
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    process = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env or ENV, cwd=cwd,
                               start_new_session=True, preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0))
    os.close(slave)
    return process, master


def pump(master, seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        ready, _, _ = select.select([master], [], [], 0.05)
        if ready:
            try:
                os.read(master, 65536)
            except OSError:
                return


def openings(log):
    try:
        with open(log) as file:
            return [json.loads(line) for line in file if '"event": "prompt"' in line]
    except FileNotFoundError:
        return []


def wait_for(log, predicate, master, timeout=30.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for entry in openings(log):
            if predicate(entry):
                return entry
        pump(master, 0.1)
    raise TimeoutError(f"no opening in {log}")


def stop(process, master):
    try:
        os.killpg(process.pid, 15)
    except ProcessLookupError:
        pass
    try:
        process.wait(5)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, 9)
        process.wait()
    os.close(master)


def prompt(language, *arguments):
    log = tempfile.mktemp(suffix=".jsonl", dir=WORK)
    process, master = on_pty([BINARY, "--speech", "none", "--speech-log", log, "--lang", language, *arguments])
    entry = wait_for(log, lambda _: True, master)
    os.write(master, b"\x03")
    stop(process, master)
    return entry


def wrapper(name, mode):
    path = f"{WORK}/{name}"
    log = f"{WORK}/{name}.jsonl"
    with open(path, "w") as file:
        file.write(f"#!/bin/sh\nexec '{BINARY}' --speech none --speech-log '{log}' {mode} \"$@\"\n")
    os.chmod(path, 0o755)
    return path, log


def ssh_add_confirmation():
    askpass, log = wrapper("askpass", "--askpass --")
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "joe@laptop", "-f", WORK + "/key"], check=True)
    socket = WORK + "/agent.sock"
    env = dict(ENV, SSH_ASKPASS=askpass, SSH_ASKPASS_REQUIRE="force", DISPLAY="")
    agent, master = on_pty(["ssh-agent", "-D", "-a", socket], env=env)
    for _ in range(100):
        if os.path.exists(socket):
            break
        time.sleep(0.05)
    client = dict(ENV, SSH_AUTH_SOCK=socket)
    subprocess.run(["ssh-add", "-c", WORK + "/key"], env=client, check=True, capture_output=True)
    with open(WORK + "/data", "w") as file:
        file.write("x")
    signer = subprocess.Popen(["ssh-keygen", "-Y", "sign", "-f", WORK + "/key.pub", "-n", "file", WORK + "/data"],
                              env=client, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    entry = wait_for(log, lambda _: True, master)
    pump(master, 0.5)
    os.write(master, b"no\r")
    signer.wait(20)
    stop(agent, master)
    return entry


def gnupg_home():
    home = tempfile.mkdtemp(prefix="/tmp/otc-gpg-")
    env = dict(ENV, GNUPGHOME=home)
    with open(home + "/gpg-agent.conf", "w") as file:
        file.write("allow-loopback-pinentry\n")
    subprocess.run(["gpg", "--batch", "--pinentry-mode", "loopback", "--passphrase", "pw", "--quick-gen-key",
                    "Joe Tester <joe@example.org>", "ed25519", "sign", "never"], env=env, check=True,
                   capture_output=True)
    subprocess.run(["gpgconf", "--kill", "gpg-agent"], env=env)
    pinentry, log = wrapper("pinentry", "--pinentry")
    with open(home + "/gpg-agent.conf", "w") as file:
        file.write(f"pinentry-program {pinentry}\n")
    with open(home + "/message", "w") as file:
        file.write("hello\n")
    return home, env, log


def gpg_getpin_and_confirm():
    home, env, log = gnupg_home()
    try:
        process, master = on_pty(["/bin/sh", "-c", f"GPG_TTY=$(tty) exec gpg --yes --sign --output {home}/m.gpg "
                                  f"{home}/message"], env=env)
        getpin = wait_for(log, lambda _: True, master)
        pump(master, 0.5)
        os.write(master, b"\x1b")
        process.wait(20)
        os.close(master)
        listing = subprocess.run(["gpg", "--with-colons", "--list-secret-keys"], env=env, capture_output=True,
                                 text=True).stdout
        fingerprint = next(line.split(":")[9] for line in listing.splitlines() if line.startswith("fpr:"))
        process, master = on_pty(["/bin/sh", "-c", f"GPG_TTY=$(tty) exec gpg --delete-secret-keys {fingerprint}"],
                                 env=env)
        # gpg's own two questions on the terminal, then gpg-agent's CONFIRM through the pinentry.
        for _ in range(2):
            pump(master, 1.5)
            os.write(master, b"y\r")
        confirm = wait_for(log, lambda entry: "delete" in entry["text"], master)
        pump(master, 0.5)
        os.write(master, b"\x1b")
        process.wait(20)
        os.close(master)
        return getpin, confirm
    finally:
        subprocess.run(["gpgconf", "--kill", "gpg-agent"], env=env)
        shutil.rmtree(home, ignore_errors=True)


def gpg_agent_ssh_confirmation():
    """gpg-agent's confirmation for an ssh key marked "confirm" in sshcontrol, its strings as gpg-agent 2.2 sends
    them (agent/command-ssh.c), over Assuan to the pinentry on a pty."""
    log = f"{WORK}/ssh-confirm.jsonl"
    script = (
        "printf 'OPTION ttyname=%s\\nSETDESC An ssh process requested the use of key%%0A  "
        "SHA256:MxK7AZytNVMx2kTAfoQwkXscJq6PlFrQ06JqTR7It3A%%0A  (joe@laptop)%%0ADo you want to allow this?\\n"
        "SETOK Allow\\nSETNOTOK Deny\\nCONFIRM\\nBYE\\n' \"$(tty)\" | "
        f"'{BINARY}' --pinentry --speech none --speech-log '{log}'")
    process, master = on_pty(["/bin/sh", "-c", script])
    entry = wait_for(log, lambda _: True, master)
    pump(master, 0.5)
    os.write(master, b"\x1b")
    process.wait(20)
    os.close(master)
    return entry


def agent_request(message, *options):
    log = f"{WORK}/agent.jsonl"
    if os.path.exists(log):
        os.unlink(log)
    process, master = on_pty([BINARY, "--agent", "--agent-directory", ASK, "--speech", "none", "--speech-log", log])
    wait_for(log, lambda _: True, master)
    querier = subprocess.Popen(["systemd-ask-password", "--no-tty", *options, message], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    entry = wait_for(log, lambda entry: "Waiting" not in entry["text"], master)
    pump(master, 0.5)
    os.write(master, b"\x1b")
    querier.wait(20)
    stop(process, master)
    return entry


def first_sentence(text):
    """A log with no `lead`: the first sentence as written."""
    for index, character in enumerate(text):
        if character in ".?!" and (index + 1 == len(text) or text[index + 1] == " "):
            return text[:index + 1]
    return text


def seconds(pairs):
    """The prompt's own voice's seconds of audio for each (language, text)."""
    lines = "".join(f"{language}\t{text}\n" for language, text in pairs)
    output = subprocess.run([SYNTHESIS, "--audio-seconds"], input=lines, capture_output=True, text=True, check=True)
    return [float(value) for value in output.stdout.split()]


def main():
    rows = []

    def add(name, language, entry):
        if entry is None:
            return
        lead = entry.get("lead") or first_sentence(entry.get("said", entry["text"]))
        rows.append((name, language, lead, entry.get("said", entry["text"])))

    for language in ("en", "de", "es", "fr", "pt", "pt-BR"):
        add("prompt (default label)", language, prompt(language))
    add("askpass password (sudo's prompt text)", "en", prompt("en", "--askpass", "--", "[sudo] password for joe: "))
    add("askpass password (ssh's prompt text)", "en",
        prompt("en", "--askpass", "--", "joe@build.example.org's password: "))
    add("askpass confirmation (ssh-agent, ssh-add -c)", "en", ssh_add_confirmation())
    getpin, confirm = gpg_getpin_and_confirm()
    add("pinentry GETPIN (gpg --sign)", "en", getpin)
    add("pinentry CONFIRM (gpg-agent's ssh-key confirmation)", "en", gpg_agent_ssh_confirmation())
    add("pinentry CONFIRM (gpg --delete-secret-keys)", "en", confirm)
    if os.environ.get("OTC_OPENINGS_NAMESPACE") == "1":
        add("agent request (systemd-ask-password \"Passphrase for backup\")", "en",
            agent_request("Passphrase for backup"))
        add("agent request (systemd-cryptsetup's words, --id=cryptsetup:/dev/sda2)", "en",
            agent_request("Please enter passphrase for disk sda2_crypt:", "--id=cryptsetup:/dev/sda2"))
    else:
        print("(the agent's rows need root and systemd-ask-password: skipped)")
    leads = seconds([(language, lead) for _, language, lead, _ in rows])
    wholes = seconds([(language, whole) for _, language, _, whole in rows])
    print(f"{'opening':<70} {'lang':<6} {'first sentence':>14} {'whole opening':>14}  target <= {TARGET:.0f} s")
    for (name, language, lead, _), first, whole in zip(rows, leads, wholes):
        verdict = "met" if first <= TARGET else "MISSED"
        print(f"{name:<70} {language:<6} {first:>12.2f} s {whole:>12.2f} s  {verdict}")
        print(f"    first sentence: {lead}")


if __name__ == "__main__":
    try:
        main()
    finally:
        shutil.rmtree(WORK, ignore_errors=True)
