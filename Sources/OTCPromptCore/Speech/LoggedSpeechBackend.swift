/// Passes every announcement to another backend and to a log, in the order they are made, so
/// the speech log is written as each announcement happens (a crash loses no earlier line).
public final class LoggedSpeechBackend: SpeechBackend {
    private let backend: any SpeechBackend
    private let record: (Announcement) -> Void

    /// - Parameters:
    ///   - backend: where the announcements are spoken.
    ///   - record: called with each announcement before it is spoken.
    public init(wrapping backend: any SpeechBackend, record: @escaping (Announcement) -> Void) {
        self.backend = backend
        self.record = record
    }

    public func speak(_ announcement: Announcement) {
        record(announcement)
        backend.speak(announcement)
    }

    public func finish(timeout: Duration) {
        backend.finish(timeout: timeout)
    }

    public var newsDescriptor: Int32? { backend.newsDescriptor }
    public func takeNews() { backend.takeNews() }
    public var isSpeaking: Bool { backend.isSpeaking }
}
