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
    /// Announcements go to `backend` from now on (speech, or text lines when it fell back).
    case started(SpeechStarted)
    /// The prompt cannot go on as asked (a voice named on the command line is not installed):
    /// it ends with this message, a usage error.
    case failed(String)
}

/// What changes once a voice has started.
public struct SpeechStarted {
    /// Where the held announcements went; released to `backend` once the screen is up to date.
    public var held: HeldSpeech
    public var backend: any SpeechBackend
    /// The renderer from now on (the null one when announcements became text lines); nil keeps it.
    public var renderer: (any FieldRenderer)?
    /// Lines for the user, each once (why speech fell back), written before anything is caught up.
    public var notices: [String]

    public init(held: HeldSpeech, backend: any SpeechBackend, renderer: (any FieldRenderer)?, notices: [String]) {
        self.held = held
        self.backend = backend
        self.renderer = renderer
        self.notices = notices
    }
}
