import OTCPromptCore
import OTCPromptSpeech

/// espeak-ng speaking into `--audio-file`, as a voice that can stop: when the file takes no more audio (a
/// FIFO whose reader stopped reading or went away, `WAVFileSink`), it says why and keeps what it was
/// given, and `SpeechFallback` shows it as text. Keys never wait for it: the sink's writes have a deadline
/// on the writer thread, and this only asks whether they have stopped.
final class AudioFileVoice: FallibleSpeechBackend {
    let engine: EspeakSpeechBackend
    private let path: String
    /// Given after the file stopped, or the last words the file stopped during.
    private var unsaid: [Announcement] = []
    /// The newest announcement given to the engine, shown as text if the file stopped while it played.
    private var last: Announcement?

    init(engine: EspeakSpeechBackend, path: String) {
        self.engine = engine
        self.path = path
    }

    var failure: SpeechFailure? { engine.audioFileFailure.map { .audioFileStopped(path: path, why: $0) } }

    func speak(_ announcement: Announcement) {
        guard failure == nil else { return unsaid.append(announcement) }
        last = announcement
        engine.speak(announcement)
    }

    func finish(timeout: Duration) {
        engine.finish(timeout: timeout)
        // Stopped during the last words: they are shown as text.
        if failure != nil, let last, last.isFinal { unsaid.append(last) }
        last = nil
    }

    func takeUnsaid() -> [Announcement] {
        defer { unsaid = [] }
        return unsaid
    }
}
