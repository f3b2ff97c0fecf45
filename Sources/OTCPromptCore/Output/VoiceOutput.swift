/// The announcements to a `SpeechBackend`: the voice (espeak-ng, speech-dispatcher, an audio file), through its one
/// switch to text lines should it fail (`SpeechFallback`); text lines from the start are an output of their own
/// (`TextLinesOutput`). The voice's news (speech-dispatcher's word that an opening was cut) wakes the loop as an
/// output's keys do.
public final class VoiceOutput: Announcing, NewsOfItsOwn {
    public let backend: any SpeechBackend

    public init(_ backend: any SpeechBackend) {
        self.backend = backend
    }

    public func say(_ announcement: Announcement) {
        backend.speak(announcement)
    }

    public var descriptor: Int32? { backend.newsDescriptor }

    public func takeNews() {
        backend.takeNews()
    }

    public var isSpeaking: Bool { backend.isSpeaking }

    /// Nothing to end: the voice's last words are waited for, and its backend closed, by the program
    /// (`SpeechSetup.finish`).
    public func end() {}
    public func close() {}
}
