import OTCPromptCore
import OTCPromptHost
import OTCPromptLoop
import OTCPromptSpeech

/// What a front end's caller asks of a prompt beyond its question and the user's settings: who else waits for the
/// answer, what the terminal and the voice do around it, the tones at boot. A front end chooses one value
/// (`plain`, `pinentry(caller:)`, `keyscript(cue:)`), so that what one caller needs is said where that caller is and
/// read in one place by `PromptProgram`, not set flag by flag on the struct every prompt shares.
struct PromptPolicy {
    /// The descriptors of a caller waiting for the answer on a terminal that is not its own (gpg-agent's pipe, for a
    /// pinentry): see `PromptSystem.live(terminal:caller:)`.
    var caller: [Int32] = []
    /// The caller is a relay inside this process (the password agent's), not another program in its process group:
    /// Ctrl-Z then stops the prompt as any job, rather than being refused as for gpg-agent.
    var callerIsInProcess = false
    /// News from outside said while it asks (the password agent's other requests): `PromptSystem.outside`.
    var outside: (any OutsideEvents)?
    /// The terminal stays raw after an ordinary end, for the next prompt of this process (`PromptLoop.keepsRawMode`).
    var keepsRawMode = false
    /// espeak-ng lets its audio device go after a silence, and opens it again for the next announcement: for a
    /// prompt that mostly waits (the password agent's wait). nil: kept for the whole prompt.
    var voiceReleasedAfterSilence: DeviceRelease?
    /// A caller's hang-up keeps raw mode, and the last line as drawn when this says so
    /// (`PromptLoop.keepsTerminalWhenCallerGoes`).
    var keepsTerminalWhenCallerGoes: (() -> Bool)?
    /// `PromptLoop.keyHold`.
    var keyHold: (any KeyHold)?
    /// `PromptLoop.declines`.
    var declines: (() -> Void)?
    /// espeak-ng starts while `--speech auto` still probes, to gain the probes' time; false for a prompt whose
    /// process should hold espeak-ng's libraries only when it speaks with them (the password agent: they cannot
    /// be unloaded, and with the user's speech-dispatcher chosen they would be held for nothing).
    var speculatesOnEspeak = true
    /// The PC speaker's cue for this question when it is shown as text, with no voice (`BootCue`): the disk prompt
    /// at boot. nil: no tones.
    var cue: BootCue?

    /// A person at the terminal, and no one else waiting: the plain prompt's, an askpass's, the doctor's.
    static var plain: PromptPolicy { PromptPolicy() }

    /// gpg-agent waits on `caller` (its pipe) for each dialog; its going away ends the dialog.
    static func pinentry(caller: [Int32]) -> PromptPolicy { PromptPolicy(caller: caller) }

    /// cryptsetup's keyscript at boot: the question's tones on the PC speaker when no voice speaks.
    static func keyscript(cue: BootCue?) -> PromptPolicy { PromptPolicy(cue: cue) }
}
