import OTCPromptCore

/// A speech backend that remembers every announcement, for logic tests. It does not replace
/// the real engine: real-engine tests live in OTCPromptSpeechTests.
public final class RecordingSpeechBackend: SpeechBackend {
    /// Everything spoken, in order.
    public private(set) var spoken: [Announcement] = []
    /// The timeout passed to `finish`, once it was called.
    public private(set) var finishedWithTimeout: Duration?

    /// What `isSpeaking` answers: a test plays a voice still saying something.
    public var isSpeaking = false

    public init() {}

    public func speak(_ announcement: Announcement) {
        spoken.append(announcement)
    }

    public func finish(timeout: Duration) {
        finishedWithTimeout = timeout
    }

    /// The texts spoken, in order.
    public var texts: [String] { spoken.map(\.text) }
    /// The events spoken, in order.
    public var events: [Announcement.Event] { spoken.map(\.event) }
}
