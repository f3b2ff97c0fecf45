/// What becomes of keys typed before a prompt is ready to take them.
public enum TypeAheadRule: Equatable, Sendable {
    /// Kept: a code typed while the prompt starts counts (`code=$(otc-prompt)` typed ahead).
    case kept
    /// Whatever is queued when the prompt appears is discarded, and so is every key typed within
    /// `grace` after it, but Esc and Ctrl-C (refusing is never an accident that harms). For askpass fields and questions, where a leftover
    /// from an earlier prompt ("es⏎" after "y" answered) must never become an answer or a password.
    case discarded(grace: Duration)
}
