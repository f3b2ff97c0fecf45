# SPDX-License-Identifier: GPL-3.0-or-later
"""What the boot tests share once their initrd is built (packaging/boot-test for initramfs-tools,
packaging/boot-test-dracut for an initrd built on systemd): the LUKS image, one boot under QEMU (TCG) with a wrong
then the right passphrase typed on the serial console, and the guest's sound as QEMU records it.

A boot ends by itself (a test unit or script in the image says whether the disk opened and powers the guest off), or
the harness kills the QEMU it started when its deadline passes. Sound: `hda` is an Intel HDA card whose output is
recorded to a WAV (`-device intel-hda -device hda-output`); `pcspk` is no sound card at all, only the PC speaker,
recorded the same way (`-machine pcspk-audiodev=`)."""
import os
import re
import subprocess
import threading
import time

import pexpect

RIGHT, WRONG = "correct horse 7", "wrong"
BOOT_DEADLINE = 150  # seconds from QEMU's start to power-off, each boot

# Shell for the image, the same in both kinds of initrd: the first card's master muted and at its lowest once its
# codec is there (at most 10 s), on a machine with a sound controller, as some drivers leave it; then, once the disk
# is open, how the master is. The prompt must be heard all the same, the card on while it asks and muted again after.
MASTER_SWITCH = "amixer -c 0 sget Master 2>/dev/null | sed -n '/\\[o[nf]*\\]/{s/.*\\[\\(o[nf]*\\)\\].*/\\1/p;q}'"
MUTE_SCRIPT = """controller=
for class in /sys/bus/pci/devices/*/class; do
    case $(cat "$class") in 0x0401* | 0x0403*) controller=yes ;; esac
done
[ -n "$controller" ] || exit 0
# The codec's controls exist once it is probed; a test with no process to start, then amixer itself.
i=0
until [ -e /proc/asound/card0/codec#0 ] || [ "$i" -ge 100 ]; do sleep 0.1; i=$((i + 1)); done
i=0
until amixer -c 0 sget Master >/dev/null 2>&1 || [ "$i" -ge 20 ]; do sleep 0.2; i=$((i + 1)); done
amixer -q -c 0 sset Master 0%% mute
echo "OTC-BOOT-TEST: muted: $(%s)"
# While the prompt asks (the boot script has saved the card's levels), the master must be on: QEMU's WAV recording
# ignores the guest's mute, so the sound alone cannot tell.
(
    until [ -e /run/otc-prompt/mixer ]; do sleep 0.2; done
    i=0
    until [ "$(%s)" = on ] || [ "$i" -ge 10 ]; do sleep 0.3; i=$((i + 1)); done
    echo "OTC-BOOT-TEST: master while asked: $(%s)"
) &
""" % (MASTER_SWITCH, MASTER_SWITCH, MASTER_SWITCH)
MIXER_REPORT = 'echo "OTC-BOOT-TEST: mixer after: $(%s)"' % MASTER_SWITCH


def run(*command, **options):
    return subprocess.run(command, check=True, **options)


def luks_image(work):
    """A 32 MB LUKS2 image whose passphrase is RIGHT (a cheap PBKDF, so that a try takes no time under TCG), and its
    UUID. Only formatted here: the host has no device-mapper, the volume is opened inside QEMU alone."""
    image = os.path.join(work, "disk.img")
    with open(image, "wb") as file:
        file.truncate(32 * 1024 * 1024)
    run("cryptsetup", "luksFormat", "--batch-mode", "--type", "luks2", "--pbkdf", "pbkdf2",
        "--pbkdf-force-iterations", "1000", "--key-file", "-", image, input=RIGHT.encode())
    uuid = run("cryptsetup", "luksUUID", image, capture_output=True, text=True).stdout.strip()
    return image, uuid


class Recording:
    """The guest's sound as QEMU writes it (s16le stereo 44.1 kHz after a 44-byte header), read as it grows by a
    thread of its own every 20 ms: which 10 ms windows hold sound, when each arrived on the host's clock, and how
    often the signal crosses zero in each (a tone's pitch). QEMU writes only while a voice plays: the HDA card's
    stream runs all along (silence included), the PC speaker's only while it beeps, so its tones follow one another
    in the file with no silence between them, and only their arrival tells them apart."""

    RATE, FRAME, WINDOW = 44100, 4, 441  # 10 ms windows
    THRESHOLD = 500

    def __init__(self, path):
        self.path, self.offset = path, 44
        self.windows, self.crossings, self.arrivals = [], [], []
        self.first_voice_at = self.last_voice_at = None
        self.lock = threading.Lock()
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._follow, daemon=True)
        self.thread.start()

    def _follow(self):
        while not self.stopped.wait(0.02):
            self.poll()

    def stop(self):
        self.stopped.set()
        self.thread.join()
        self.poll()

    def poll(self):
        with self.lock:
            try:
                with open(self.path, "rb") as file:
                    file.seek(self.offset)
                    data = file.read()
            except FileNotFoundError:
                return
            usable = len(data) - len(data) % (self.WINDOW * self.FRAME)
            if not usable:
                return
            self.offset += usable
            samples = memoryview(data[:usable]).cast("h")
            now = time.monotonic()
            step = self.WINDOW * 2
            for start in range(0, len(samples), step):
                left = samples[start:start + step:2]
                voiced = max(abs(v) for v in left) > self.THRESHOLD
                self.windows.append(voiced)
                self.arrivals.append(now)
                self.crossings.append(sum(1 for a, b in zip(left, left[1:]) if (a < 0) != (b < 0)) if voiced else 0)
                if voiced:
                    self.last_voice_at = now
                    self.first_voice_at = self.first_voice_at or now

    def wait_until_quiet(self, since, quiet=0.8, deadline=30, at_least=0.0):
        """Waits for sound after `since`, at least `at_least` seconds of it, then for `quiet` seconds without any.
        `at_least` tells an opening that has not begun from one that has ended: the tail of what was said before it
        followed by a pause (a voice that starts late on a loaded machine) is quiet too."""
        end = time.monotonic() + deadline
        while time.monotonic() < end:
            self.poll()
            if self.last_voice_at and self.last_voice_at > since and time.monotonic() - self.last_voice_at > quiet:
                with self.lock:
                    voiced = sum(1 for arrival, on in zip(self.arrivals, self.windows) if on and arrival > since)
                if voiced * self.WINDOW / self.RATE >= at_least:
                    return
            time.sleep(0.02)
        raise AssertionError(f"no sound (at least {at_least} s of it) then quiet within {deadline} s")

    def mark(self):
        """Where the recording is now, to split it by what the harness did."""
        self.poll()
        with self.lock:
            return len(self.windows)

    def voiced_seconds(self, start, end=None):
        with self.lock:
            return sum(self.windows[start:end]) * 0.01

    def first_voiced_after(self, start):
        """When the first window with sound after mark START arrived (host clock); None if none did."""
        with self.lock:
            return next((self.arrivals[i] for i in range(start, len(self.windows)) if self.windows[i]), None)

    def tones(self, start=0, end=None):
        """The beeps between two marks, as (arrival on the host's clock, length in s, pitch in Hz): runs of windows
        with sound and the same pitch (within 15 %), the pitch from the zero crossings (two a period); runs shorter
        than 40 ms (where one tone turns into the next, or starts late on a busy host) are left out: the shortest
        cue's tone lasts 80 ms."""
        with self.lock:
            windows = list(zip(self.windows, self.crossings, self.arrivals))[start:end]
        runs = []
        for voiced, crossings, arrival in windows:
            hertz = crossings / 2 / (self.WINDOW / self.RATE)
            if voiced and runs and runs[-1][3] and abs(hertz - runs[-1][2] / runs[-1][1]) <= 0.15 * runs[-1][2] / runs[-1][1]:
                runs[-1][1] += 1
                runs[-1][2] += hertz
            else:
                runs.append([arrival, 1, hertz, voiced])
        return [(arrival, count * 0.01, round(total / count)) for arrival, count, total, voiced in runs
                if voiced and count >= 4]


class Boot:
    """One QEMU boot (TCG) of KERNEL with INITRD and the LUKS image as a virtio disk, its serial console driven with
    pexpect (what the guest wrote goes to console-NAME.log; what is typed is not logged)."""

    def __init__(self, kernel, initrd, image, append, work, name, sound):
        self.wav = os.path.join(work, f"sound-{name}.wav")
        command = ["qemu-system-x86_64", "-accel", "tcg", "-m", "512", "-nodefaults", "-display", "none",
                   "-no-reboot", "-serial", "stdio", "-kernel", kernel, "-initrd", initrd,
                   "-drive", f"file={image},if=virtio,format=raw", "-append", "console=ttyS0 " + append,
                   # Entropy: without it the kernel's random pool fills slowly under TCG, and cryptsetup waits for it.
                   "-device", "virtio-rng-pci"]
        if sound == "hda":
            command += ["-audiodev", f"wav,id=a,path={self.wav}", "-device", "intel-hda",
                        "-device", "hda-output,audiodev=a"]
        elif sound == "pcspk":
            command += ["-audiodev", f"wav,id=a,path={self.wav}", "-machine", "pcspk-audiodev=a"]
        self.console_path = os.path.join(work, f"console-{name}.log")
        self.console_log = open(self.console_path, "w")
        self.started = time.monotonic()
        self.child = pexpect.spawn(command[0], command[1:], encoding="utf-8", codec_errors="replace",
                                   timeout=BOOT_DEADLINE)
        self.child.logfile_read = self.console_log
        self.recording = Recording(self.wav)
        self.marks = []  # (what the harness did, where the recording was then)
        self.mark_times = {}

    def mark(self, label):
        """Notes where the recording is now and the time, as LABEL (`tones_between`, `heard`)."""
        self.marks.append((label, self.recording.mark()))
        self.mark_times[label] = time.monotonic()

    def expect(self, pattern, timeout=-1):
        self.child.expect(pattern, timeout=timeout)
        return self.child.match

    def type_tries(self, prompt, news, voiced, settle=0.0, tries=((1, WRONG), (2, RIGHT))):
        """Types each try's passphrase, a key at a time, then Enter; before the second, waits for PROMPT again and
        reads whether NEWS was shown before it. With VOICED, each key waits for its feedback to be heard; without,
        for its text line, and the first key for SETTLE seconds after the question's text line (a password agent
        takes no key typed within a moment of its question appearing). Returns whether the news was on the screen."""
        news_on_screen = False
        for attempt, passphrase in tries:
            if attempt > 1:
                self.expect(prompt, timeout=30)
                news_on_screen = news in self.child.before
                self.mark(f"question of try {attempt}")
                if voiced:
                    # The retry's opening begins with its news and lasts well over a second: waiting for that much
                    # voice keeps the first key from cutting an opening that had not begun when the screen showed it.
                    self.recording.wait_until_quiet(self.mark_times[f"question of try {attempt}"], at_least=1.2)
            if not voiced and settle:
                # The opening's hint, its last sentence but the field's: "Type it, then Enter."
                self.expect(r"then (press )?Enter\.", timeout=30)
                time.sleep(settle)
            for index, character in enumerate(passphrase):
                sent = time.monotonic()
                self.mark(f"key {index + 1} of try {attempt}")
                self.child.send(character)
                if voiced:
                    self.recording.wait_until_quiet(sent, quiet=0.4, deadline=15)
                else:
                    # A key typed while the voice is still found missing is caught up with the opening, in one
                    # line ("Unlock disk vda, 1 entered, …"): its count, not its own "bullet", is what is said.
                    self.expect(r"bullet|[0-9]+ entered", timeout=15)
            self.mark(f"Enter of try {attempt}")
            self.child.send("\r")
        return news_on_screen

    def finish(self, pattern, unlocked):
        """Waits for the image's verdict (PATTERN, whose first group is UNLOCKED when the disk opened) and the
        guest's power-off; kills the QEMU past its deadline. Returns whether the disk opened."""
        try:
            self.expect(pattern, timeout=60)
            opened = self.child.match.group(1) == unlocked
            self.child.expect(pexpect.EOF, timeout=30)
            self.whole = time.monotonic() - self.started
            return opened
        finally:
            self.close()

    def close(self):
        if self.child.isalive():
            self.child.kill(9)  # the QEMU this boot started, past its deadline
        self.child.close()
        self.console_log.close()
        self.recording.stop()

    def reported(self, name):
        """What the image's test scripts said as "OTC-BOOT-TEST: NAME: VALUE" anywhere on the console (a line that
        came while the harness waited for something else), or None."""
        with open(self.console_path, errors="replace") as file:
            found = re.search(r"OTC-BOOT-TEST: " + re.escape(name) + r": (\S*)\r*\n", file.read())
        return found.group(1) if found else None

    def heard(self):
        """What was heard between one thing the harness did and the next: the opening before the first key, each
        key's feedback, and after the first Enter, "submitted" then the retry's opening."""
        bounds = [("opening", 0)] + [mark for mark in self.marks if mark[0].startswith(("key", "Enter"))]
        return [(label, self.recording.voiced_seconds(start, end))
                for (label, start), (_, end) in zip(bounds, bounds[1:] + [("end", None)])]

    def cues(self, expected, failures, label):
        """Checks that the PC speaker played the cues EXPECTED, in order: (name, pitches in Hz, the mark it follows,
        the seconds within which its first tone must arrive after that mark, or None). The recording holds the tones
        alone, one after the other, and QEMU writes it in blocks: so they are matched in order over the whole
        recording, not cut at the marks, and told apart in time by their arrival. Returns what was matched."""
        tones = self.recording.tones()
        found, index = [], 0
        for name, pitches, after, within in expected:
            heard = tones[index:index + len(pitches)]
            index += len(pitches)
            found.append((name, [(round(arrival - self.mark_times[after], 2), length, hertz)
                                 for arrival, length, hertz in heard]))
            if len(heard) < len(pitches) or any(abs(h[2] - p) > p * 0.08 for h, p in zip(heard, pitches)):
                failures.append(f"{label}: the {name} cue: tones {found[-1][1]}, expected the pitches {pitches}")
                break
            delay = heard[0][0] - self.mark_times[after]
            # QEMU's wav file is written in blocks of a few tens of milliseconds: a tone may show a little late.
            if delay < -0.1 or (within is not None and delay > within):
                failures.append(f"{label}: the {name} cue arrived {delay:.2f} s after {after}"
                                + (f", not within {within} s" if within is not None else ""))
        if not failures and len(tones) > index:
            failures.append(f"{label}: tones besides the cues: {tones[index:]}")
        return found


def judge_voice(boot, failures, label):
    """The checks every voiced boot makes: an opening of some length, each key one short feedback, and the retry's
    opening longer than the first by the news it begins with ("Wrong passphrase, try 2."). Each opening is what was
    heard from just before the harness saw its question on the console (the sound may come first) to the first key:
    what followed the first Enter as a whole would also hold "submitted" and, with the agent, its wait, which the
    retry's request cuts short."""
    marks = dict(boot.marks)
    margin = 30  # windows: 0.3 s

    def opening(question, key):
        return boot.recording.voiced_seconds(max(0, marks[question] - margin), marks[key])

    first, retry = opening("question", "key 1 of try 1"), opening("question of try 2", "key 1 of try 2")
    print(f"{label}: the opening heard for {first:.2f} s, the retry's for {retry:.2f} s")
    if first < 1.5:
        failures.append(f"{label}: the opening was heard for {first:.2f} s only")
    heard = boot.heard()
    for name, seconds in heard:
        if name.startswith("key") and not 0.1 <= seconds < first:
            failures.append(f"{label}: {name}: {seconds:.2f} s of voice, not one short feedback")
    if retry < first + 0.8:
        failures.append(f"{label}: the retry's opening {retry:.2f} s, the first {first:.2f} s: no news heard")
    return first, retry


def print_figures(label, figures):
    print(f"{label}:", ", ".join(f"{k} {v:.2f}" for k, v in figures.items()))
