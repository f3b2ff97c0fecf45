import OTCPromptCore

/// An output that records what the loop shows it and when it is given back, and hands in keys as a braille display's
/// keyboard would: the test queues them, one batch for each time the loop asks.
public final class RecordingSessionOutput: SessionOutput {
    /// Everything the output was told, in order: "present" or "release".
    public private(set) var calls: [String] = []
    public private(set) var presented: [SessionView] = []
    private var batches: [[Key]]
    /// Told of each call as it happens, to put it in order with another double's.
    public var onCall: ((String) -> Void)?

    /// - Parameter keys: what each `takeKeys` returns in turn; nothing once they are used up.
    public init(keys: [[Key]] = []) {
        batches = keys
    }

    public func present(_ view: SessionView) {
        calls.append("present")
        presented.append(view)
        onCall?("present")
    }

    public func release() {
        calls.append("release")
        onCall?("release")
    }

    /// Readable while keys are queued; any number will do, the scripted terminal never polls it.
    public var descriptor: Int32? { batches.isEmpty ? nil : 98 }

    public func takeKeys() -> [Key] {
        batches.isEmpty ? [] : batches.removeFirst()
    }
}
