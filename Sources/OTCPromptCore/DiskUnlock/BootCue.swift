/// The tones that tell where the disk prompt at boot is when no sound card speaks: played on the PC speaker, which
/// needs no sound card's driver, in four shapes learnt once (as Arch's cryptsetup-beep does): the question, a retry
/// after a wrong answer, a PIN (a security token's or the TPM's), and the disks unlocked.
public enum BootCue: String, CaseIterable, Sendable {
    /// One middle beep: type the passphrase.
    case firstTry = "first"
    /// Falling: the last answer was wrong, type it again.
    case retry
    /// Three short high beeps: a PIN, not the passphrase.
    case pin
    /// Rising: the disks are open, the boot goes on.
    case unlocked

    /// One beep, then the silence before the next.
    public struct Tone: Equatable, Sendable {
        public var hertz: Int
        public var milliseconds: Int
        public var pauseAfter: Int

        public init(_ hertz: Int, _ milliseconds: Int, pauseAfter: Int = 0) {
            self.hertz = hertz
            self.milliseconds = milliseconds
            self.pauseAfter = pauseAfter
        }
    }

    /// The tones, at pitches a PC speaker renders well (between 300 Hz and 2 kHz) and far enough apart to be told
    /// apart by ear; each cue lasts half a second at most, so that it is over before a key is typed.
    public var tones: [Tone] {
        switch self {
        case .firstTry: [Tone(880, 200)]
        case .retry: [Tone(440, 150, pauseAfter: 60), Tone(330, 250)]
        case .pin: [Tone(1568, 80, pauseAfter: 60), Tone(1568, 80, pauseAfter: 60), Tone(1568, 80)]
        case .unlocked: [Tone(660, 100, pauseAfter: 40), Tone(880, 100, pauseAfter: 40), Tone(1320, 180)]
        }
    }

    /// The cue a question opens with: a retry is said as one whatever it asks, since "wrong" matters most.
    public static func question(isPIN: Bool, attempt: Int) -> BootCue {
        attempt > 1 ? .retry : isPIN ? .pin : .firstTry
    }
}
