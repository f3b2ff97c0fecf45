import OTCPromptCore
import OTCPromptSystem

/// A speech backend that remembers every announcement, for logic tests. It does not replace
/// the real engine: real-engine tests live in OTCPromptSpeechTests.
public final class RecordingSpeechBackend: SpeechBackend {
    /// Everything spoken, in order.
    public private(set) var spoken: [Announcement] = []
    /// The timeout passed to `finish`, once it was called.
    public private(set) var finishedWithTimeout: Duration?

    /// What `isSpeaking` answers: a test plays a voice still saying something.
    public var isSpeaking = false

    /// How far the newest announcement got, as a voice reports it: numbered as given, not begun until `hear`.
    public private(set) var progress: SpeechProgress?

    public init() {}

    public func speak(_ announcement: Announcement) {
        spoken.append(announcement)
        progress = SpeechProgress(number: UInt64(spoken.count), began: nil, heardBy: nil)
    }

    /// Plays the newest announcement: heard from `began`, still speaking until it is all with the device
    /// (`heardBy`), at which the recording stops speaking.
    public func hear(began: MonotonicInstant?, heardBy: MonotonicInstant?) {
        progress?.began = began?.nanoseconds
        progress?.heardBy = heardBy?.nanoseconds
        isSpeaking = heardBy == nil
    }

    public func finish(timeout: Duration) {
        finishedWithTimeout = timeout
    }

    /// The texts spoken, in order.
    public var texts: [String] { spoken.map(\.text) }
    /// The events spoken, in order.
    public var events: [Announcement.Event] { spoken.map(\.event) }
}
