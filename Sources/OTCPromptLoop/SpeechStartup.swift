import OTCPromptCore

/// A voice still starting when the prompt appears (espeak-ng and the audio device, or
/// speech-dispatcher): the loop draws and takes keys meanwhile, its announcements held in a
/// `HeldSpeech`, and wakes when the start-up ends. The live one runs on a thread of its own where
/// every wait has a deadline; the loop's tests use a scripted one.
public protocol SpeechStartup: AnyObject {
    /// Readable once the start-up has ended, so the loop's one wait covers it.
    var descriptor: Int32 { get }
    /// How the start-up ended, without waiting; nil while it goes on. Called on the loop's thread.
    func takeOutcome() -> SpeechStartOutcome?
}

/// How a voice's start-up ended.
public enum SpeechStartOutcome {
    /// Announcements go to `backend` from now on (a voice, or one that is unavailable: text lines).
    case started(SpeechStarted)
    /// The prompt cannot go on as asked (a voice named on the command line is not installed):
    /// it ends with this message, a usage error.
    case failed(String)
}

/// What changes once a voice has started.
public struct SpeechStarted {
    /// Where the held announcements went; released to `backend` once the screen is up to date.
    public var held: HeldSpeech
    /// The voice from now on; an `UnavailableVoice` when speech turned out not to be there, which the
    /// outputs' `SpeechFallback` turns into text lines.
    public var backend: any SpeechBackend
    /// Lines for the user, each once (a configured voice that is not installed), written before anything is
    /// caught up.
    public var notices: [String]

    public init(held: HeldSpeech, backend: any SpeechBackend, notices: [String] = []) {
        self.held = held
        self.backend = backend
        self.notices = notices
    }
}
