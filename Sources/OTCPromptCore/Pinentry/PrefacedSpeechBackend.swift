/// Says `preface` together with the first announcement, in one utterance: a dialog's description
/// and error must come before the field's prompt, and a separate announcement would be cut off by
/// the prompt's (each announcement supersedes the one playing).
public final class PrefacedSpeechBackend: SpeechBackend {
    private let wrapped: any SpeechBackend
    private var preface: String?

    public init(wrapping wrapped: any SpeechBackend, preface: String) {
        self.wrapped = wrapped
        self.preface = preface.isEmpty ? nil : preface
    }

    public func speak(_ announcement: Announcement) {
        guard let preface else { return wrapped.speak(announcement) }
        self.preface = nil
        var announcement = announcement
        announcement.text = preface + " " + announcement.text
        wrapped.speak(announcement)
    }

    public func finish(timeout: Duration) {
        wrapped.finish(timeout: timeout)
    }
}
