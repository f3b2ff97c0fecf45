/// Something the prompt tells the user: spoken by the speech backend, shown in text mode,
/// and written to the speech log.
public struct Announcement: Equatable, Sendable {
    /// What happened; its raw value is the `event` field of the speech log.
    public enum Event: String, Sendable, CaseIterable {
        case prompt, digit, delete, clear, reject, full, paste, readback, incomplete, complete, cancel, help
        case checking
        case checkFailed = "check-failed"
        /// The check could not run at all: not a verdict on the code.
        case checkError = "check-error"
        case timeLeft = "time-left"
        case timeout
        case confirm
        /// Something about the prompt itself, e.g. that speech fell back to text.
        case notice
    }

    public var event: Event
    /// The words, exactly as spoken. In mask mode this never contains a character of the code.
    public var text: String
    /// The last words before the prompt exits: played to their end (bounded), never cut off.
    public var isFinal: Bool

    /// - Parameter isFinal: nil takes the event's usual role: `complete`, `cancel`, `timeout` and
    ///   `confirm` end the prompt; a `check-failed` with no attempts left passes true.
    public init(_ event: Event, _ text: String, isFinal: Bool? = nil) {
        self.event = event
        self.text = text
        self.isFinal = isFinal ?? Self.endsThePrompt(event)
    }

    private static func endsThePrompt(_ event: Event) -> Bool {
        switch event {
        case .complete, .cancel, .timeout, .confirm: return true
        default: return false
        }
    }
}
