/// Why the braille display is not used, or stopped being used: one line each, for the system log and `--doctor`.
public enum BrailleError: Error, Equatable, CustomStringConvertible {
    /// libbrlapi.so.0.8 is not installed, or is not the version the prompt speaks to.
    case libraryUnavailable(reason: String)
    /// The connection, its authorisation or a request failed (libbrlapi's words).
    case brlapi(call: String, reason: String)
    /// The connection reached another server than the one judged (another path, another owner).
    case notTheServerJudged(String)
    /// The prompt's terminal has no place on the display that brltty would show.
    case noTty

    public var description: String {
        switch self {
        case .libraryUnavailable(let reason): "libbrlapi.so.0.8 cannot be used: \(reason)"
        case .brlapi(let call, let reason): "BrlAPI \(call): \(reason)"
        case .notTheServerJudged(let why): "the connection reached another BrlAPI server than the one checked: \(why)"
        case .noTty:
            "the terminal is no virtual console and names no window (WINDOWID, WINDOWPATH): brltty would not show it"
        }
    }
}
