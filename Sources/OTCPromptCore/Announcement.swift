/// Something the prompt tells the user: spoken by the speech backend, shown in text mode,
/// and written to the speech log.
public struct Announcement: Equatable, Sendable {
    /// What happened; its raw value is the `event` field of the speech log.
    public enum Event: String, Sendable, CaseIterable {
        case prompt, digit, delete, clear, reject, full, paste, readback, incomplete, complete, cancel, help
        case checking
        case checkFailed = "check-failed"
        case timeLeft = "time-left"
        case timeout
        case confirm
    }

    public var event: Event
    /// The words, exactly as spoken. In mask mode this never contains a character of the code.
    public var text: String

    public init(_ event: Event, _ text: String) {
        self.event = event
        self.text = text
    }

    /// The last words before the prompt exits: played to their end (bounded), never cut off.
    public var isFinal: Bool {
        switch event {
        case .complete, .cancel, .timeout: return true
        default: return false
        }
    }
}
