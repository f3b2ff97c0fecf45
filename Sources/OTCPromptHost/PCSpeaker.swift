// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptCore
import OTCPromptSystem

/// The PC speaker, through the virtual console: the disk prompt's cues at boot when no sound card speaks (`BootCue`).
/// Each tone is one `KDMKTONE` request: the kernel plays it on the speaker (the pcspkr driver) and stops it by itself
/// after its length, so a process that ends in the middle of a cue never leaves a tone sounding.
public enum PCSpeaker {
    /// The virtual console in front, then the console (a virtual one when no serial console is named).
    static let consoles = ["/dev/tty0", "/dev/console"]
    /// `KDMKTONE` (linux/kd.h): the low 16 bits are the tone's period in ticks of the PC's timer, the high 16 its
    /// length in milliseconds.
    static let makeTone: UInt = 0x4B30
    static let timerHertz = 1_193_182

    /// Plays `cue` on a thread of its own and returns at once. False when no console takes tones; a console that
    /// takes them with no speaker behind it (no pcspkr driver, no speaker) cannot be told from one that sounds.
    @discardableResult public static func start(_ cue: BootCue) -> Bool {
        guard let console = openConsole() else { return false }
        do {
            try DetachedThread.start {
                play(cue.tones, on: console)
                close(console)
            }
        } catch {
            close(console)
            return false
        }
        return true
    }

    /// Plays `cue` to its end; false when no console takes tones.
    public static func play(_ cue: BootCue) -> Bool {
        guard let console = openConsole() else { return false }
        defer { close(console) }
        return play(cue.tones, on: console)
    }

    /// Whether this process runs in an initrd: systemd's own test, the file `/etc/initrd-release`.
    public static var inInitrd: Bool { access("/etc/initrd-release", F_OK) == 0 }

    /// The first console that takes a tone request (a silent one: no length, no pitch).
    private static func openConsole() -> Int32? {
        for path in consoles {
            let descriptor = SystemCall.retrying("open") { open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC) }
            guard descriptor >= 0 else { continue }
            if ioctl(descriptor, makeTone, CInt(0)) == 0 { return descriptor }
            close(descriptor)
        }
        return nil
    }

    @discardableResult
    private static func play(_ tones: [BootCue.Tone], on console: Int32) -> Bool {
        for tone in tones {
            let period = timerHertz / max(tone.hertz, 20)
            let request = CInt((min(tone.milliseconds, 0x7FFF) << 16) | min(period, 0xFFFF))
            guard ioctl(console, makeTone, request) == 0 else { return false }
            // The kernel stops the tone by itself; the next one waits for it and the pause after.
            usleep(useconds_t((tone.milliseconds + tone.pauseAfter) * 1000))
        }
        return true
    }
}
