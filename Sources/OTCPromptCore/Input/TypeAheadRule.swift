/// What becomes of keys typed before a prompt is ready to take them.
public enum TypeAheadRule: Equatable, Sendable {
    /// Kept: a code typed while the prompt starts counts (`code=$(otc-prompt)` typed ahead).
    case kept
    /// Whatever is queued when the prompt appears is discarded, and so is every key typed within
    /// `grace` after it, but Esc and Ctrl-C (refusing is never an accident that harms). A line
    /// begun within the grace is a leftover however it ends: every key of it goes, up to and
    /// including the Enter that ends it, even past the grace ("ye" typed ahead and "s⏎" after is no
    /// answer), and the session says the line was ignored (`InteractiveSession.leftoverIgnored`).
    /// For askpass fields and questions, where a leftover from an earlier prompt must never become
    /// an answer or a password.
    case discarded(grace: Duration)
    /// What comes right after a request the user may have been typing into ended without them (withdrawn, its
    /// time passed, answered elsewhere): every key is dropped, Esc and Ctrl-C too (they were meant for what
    /// ended), until the opening's first sentence has been heard (`HeldKeys`, `SpeechBackend.isSpeaking`) and then
    /// nothing has been typed for `quiet`; then the loop says how many were dropped. No key of one request's line reaches the next, at any
    /// pace, and a key typed after the news was heard is never lost unsaid.
    case heldUntilHeard(quiet: Duration)

    /// The quiet that ends `heldUntilHeard`: longer than the pause between a listener's keys (about half a
    /// second), short beside the news of a switch, which takes seconds to say.
    public static let switchQuiet: Duration = .milliseconds(1500)
}
