import OTCPromptCore

/// A voice that records what it says, as `RecordingSpeechBackend` does, and can stop like a real one
/// (speech-dispatcher killed, an audio file's reader gone): from `fail(because:)` on, or from its
/// `failsAt`-th announcement, it says nothing and keeps what it is given for `takeUnsaid`.
public final class FailingSpeechBackend: FallibleSpeechBackend {
    /// What was said before it stopped, in order.
    public private(set) var spoken: [Announcement] = []
    public private(set) var failure: SpeechFailure?
    private var unsaid: [Announcement] = []
    private let failsAt: Int?
    private let reason: SpeechFailure

    /// - Parameter failsAt: the announcement (1 is the first) at which it stops, with `reason`; nil: only
    ///   when told.
    public init(failsAt: Int? = nil, because reason: SpeechFailure = .speechDispatcherStopped) {
        self.failsAt = failsAt
        self.reason = reason
    }

    /// Stops now, for `reason`.
    public func fail(because reason: SpeechFailure) { failure = reason }

    public func speak(_ announcement: Announcement) {
        if failure == nil, let failsAt, spoken.count + 1 >= failsAt { failure = reason }
        guard failure == nil else { return unsaid.append(announcement) }
        spoken.append(announcement)
    }

    public func finish(timeout: Duration) {}

    public func takeUnsaid() -> [Announcement] {
        defer { unsaid = [] }
        return unsaid
    }

    /// The texts said before it stopped.
    public var texts: [String] { spoken.map(\.text) }
}
