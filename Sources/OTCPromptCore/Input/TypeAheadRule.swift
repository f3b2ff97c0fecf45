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
}
