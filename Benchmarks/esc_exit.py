#!/usr/bin/env python3
"""Esc -> exit, and what the shell gets after it. The prompt runs as a shell runs it, on a pseudo-terminal of
its own: a wrapper prints its status the moment it ends (the exit's figure is taken there), then reads what is
left for the shell (0.3 s of it). Each figure twice where the place matters: at a terminal of this machine, where a
lone Esc waits 25 ms, and in a session the prompt judges an SSH login, where it waits the link's 0.3 s (the wrapper
is /bin/sh run through a link named sshd-bench: the process name SessionLocation reads). The wrapper is orphaned,
so the bench's own ancestry (an SSH login of its own) is not the prompt's. The bench answers the prompt's question
about kitty's keyboard protocol as a terminal does, at once: as one without it, and, for one figure, as kitty.
Usage: esc_exit.py PROMPT [REPETITIONS] [command]   ("command": only what the shell gets after Esc)"""
import atexit
import fcntl
import os
import select
import shutil
import struct
import sys
import tempfile
import termios
import time

SCRIPT = r'''"$@"; status=$?
printf 'status=%s\n' "$status"
stty -icanon -echo min 0 time 3
left=$(dd bs=4096 count=1 2>/dev/null | od -An -tx1 | tr -d ' \n')
printf 'left=[%s]\n' "$left"
'''
ENVIRONMENT = {"TERM": "xterm-256color", "LANG": "C.UTF-8", "PULSE_SERVER": "unix:/nonexistent",
               "XDG_CONFIG_HOME": "/nonexistent", "PATH": "/usr/bin:/bin"}
REMOTE_SHELL = os.path.join(tempfile.mkdtemp(prefix="otc-bench-sshd-"), "sshd-bench")
os.symlink("/bin/sh", REMOTE_SHELL)
atexit.register(shutil.rmtree, os.path.dirname(REMOTE_SHELL))


class Run:
    """One prompt on a fresh pty, its wrapper orphaned (reaped by init)."""

    def __init__(self, binary, remote, options=(), kitty=False):
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        shell = REMOTE_SHELL if remote else "/bin/sh"
        middle = os.fork()
        if middle == 0:
            if os.fork() == 0:
                os.setsid()
                fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
                for descriptor in (0, 1, 2):
                    os.dup2(slave, descriptor)
                os.close(slave)
                os.close(self.master)
                os.execve(shell, [shell, "-c", SCRIPT, "sh", binary, "--speech", "none", *options],
                          {**os.environ, **ENVIRONMENT})
            os._exit(0)
        os.waitpid(middle, 0)
        os.close(slave)
        self.shown = b""
        self.wait_for(b"Verification", 10)
        # Answered as a terminal answers at once: its attributes, and kitty's keyboard flags when it has them.
        self.type((b"\x1b[?0u" if kitty else b"") + b"\x1b[?62;22c")
        if kitty:
            self.wait_for(b"\x1b[>1u", 5)

    def read(self, timeout):
        if select.select([self.master], [], [], timeout)[0]:
            try:
                self.shown += os.read(self.master, 4096)
            except OSError:
                return False
        return True

    def wait_for(self, text, timeout):
        end = time.monotonic() + timeout
        while text not in self.shown and time.monotonic() < end:
            if not self.read(0.02):
                break
        return text in self.shown

    def type(self, data):
        os.write(self.master, data)

    def status(self, timeout=10):
        """The prompt's exit status, once the wrapper has printed it."""
        if not self.wait_for(b"status=", timeout) or not self.wait_for(b"\n", 1):
            return None
        tail = self.shown[self.shown.rindex(b"status="):]
        return int(tail[7:].split(b"\r")[0].split(b"\n")[0])

    def left(self):
        """What the shell read after the prompt, as bytes (None if the wrapper never said)."""
        if not self.wait_for(b"left=[", 5) or not self.wait_for(b"]", 2):
            return None
        tail = self.shown[self.shown.rindex(b"left=[") + 6:]
        return bytes.fromhex(tail[:tail.index(b"]")].decode())

    def close(self):
        self.wait_for(b"left=[", 5)
        self.wait_for(b"]", 2)
        os.close(self.master)


def exit_time(binary, remote, key, options=(), kitty=False):
    run = Run(binary, remote, options, kitty)
    start = time.monotonic()
    run.type(key)
    status = run.status()
    elapsed = time.monotonic() - start
    run.close()
    return elapsed, status


def timing(name, binary, remote, key, repetitions, options=(), kitty=False):
    results = [exit_time(binary, remote, key, options, kitty) for _ in range(repetitions)]
    times = sorted(elapsed for elapsed, _ in results)
    cancelled = sum(status == 130 for _, status in results)
    print(f"{name}: median {times[len(times) // 2] * 1000:.0f} ms, max {times[-1] * 1000:.0f} ms "
          f"({repetitions} runs, {cancelled} exit 130)")


def command_after_esc(binary, remote, after):
    run = Run(binary, remote)
    run.type(b"\x1b")
    time.sleep(after)
    run.type(b"echo hi\r")
    status = run.status(timeout=3)
    if status is None:  # still open (Esc and "e" taken for Alt-e): ended with Ctrl-C, and not counted as cancelled
        run.type(b"\x03")
        run.status()
    left = run.left()
    run.close()
    return status, left


def keys_then_code(binary, remote, writes):
    """Each write after a pause, then a code: submitted (0), or what ended the prompt."""
    run = Run(binary, remote)
    for data, pause in writes:
        run.type(data)
        time.sleep(pause)
    run.type(b"123456")
    status = run.status(timeout=3)
    if status is None:
        run.type(b"\x03")
    run.close()
    return status


# Alt plus a printable key is not among them: it is Esc, then that key (tmux's escape-time writes them so).
WHOLE_KEYS = [b"\x1b[A", b"\x1b[B", b"\x1b[C", b"\x1b[D", b"\x1b[H", b"\x1b[F", b"\x1bOH", b"\x1bOF", b"\x1bOP",
              b"\x1b[15~", b"\x1b[24~", b"\x1b\x7f"]


def command_after_esc_figures(binary, repetitions):
    for remote, place in ((False, "here"), (True, "over a link")):
        results = [command_after_esc(binary, remote, 0.1) for _ in range(repetitions)]
        cancelled = sum(status == 130 for status, _ in results)
        whole = sum(left == b"echo hi\n" for _, left in results)
        print(f"Esc, then 'echo hi' + Enter 100 ms later, {place}: cancelled {cancelled}/{repetitions}, "
              f"the shell read it byte for byte {whole}/{repetitions}")


def main():
    binary = sys.argv[1]
    repetitions = int(sys.argv[2]) if len(sys.argv) > 2 else 15
    if sys.argv[3:] == ["command"]:
        command_after_esc_figures(binary, repetitions)
        return
    timing("Esc -> exit, here", binary, False, b"\x1b", repetitions)
    timing("Esc -> exit, over a link", binary, True, b"\x1b", repetitions)
    timing("Esc -> exit, over a link, the terminal speaking kitty's keyboard protocol (Esc is CSI 27 u)", binary, True,
           b"\x1b[27u", repetitions, kitty=True)
    timing("Ctrl-C -> exit, here", binary, False, b"\x03", repetitions)
    command_after_esc_figures(binary, repetitions)
    for remote, place in ((False, "here"), (True, "over a link")):
        statuses = [keys_then_code(binary, remote, [(key, 0.03) for key in WHOLE_KEYS]) for _ in range(repetitions)]
        kept = sum(status == 0 for status in statuses)
        print(f"arrows, Home, End, F1, F5, F12, Alt+Backspace in one write each, {place}: "
              f"none cancelled, code submitted {kept}/{repetitions}")
    for gap in (0.15, 0.25):
        statuses = [keys_then_code(binary, True, [(b"\x1b", gap), (b"[A", 0.05), (b"\x1b", gap), (b"[D", 0.05)])
                    for _ in range(repetitions)]
        kept = sum(status == 0 for status in statuses)
        print(f"an arrow split by the link, {gap * 1000:.0f} ms between Esc and its rest, over a link: "
              f"no cancel, code submitted {kept}/{repetitions}")


main()
