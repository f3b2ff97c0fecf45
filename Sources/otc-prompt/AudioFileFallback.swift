import OTCPromptCore
import OTCPromptSpeech

/// espeak-ng speaking into `--audio-file`: when the file stops taking audio (a FIFO whose reader stopped
/// reading or went away, `WAVFileSink`), announcements become text lines, after one notice, and the prompt
/// goes on. Keys never wait for it: the sink's writes have a deadline on the writer thread, and this only
/// asks whether they have stopped.
final class AudioFileFallback: SpeechBackend {
    let engine: EspeakSpeechBackend
    private let text: TextSpeechBackend
    private let path: String
    private var told = false
    /// The newest announcement given to the engine, shown as text if the file stopped while it played.
    private var last: Announcement?

    init(engine: EspeakSpeechBackend, text: TextSpeechBackend, path: String) {
        self.engine = engine
        self.text = text
        self.path = path
    }

    func speak(_ announcement: Announcement) {
        if tellOnce() {
            text.speak(announcement)
            return
        }
        last = announcement
        engine.speak(announcement)
    }

    func finish(timeout: Duration) {
        engine.finish(timeout: timeout)
        // Stopped during the last words: the notice, and those words, as text.
        if !told, tellOnce(), let last, last.isFinal { text.speak(last) }
    }

    /// True once audio to the file has stopped; the first time, says so.
    private func tellOnce() -> Bool {
        if told { return true }
        guard let failure = engine.audioFileFailure else { return false }
        told = true
        text.speak(
            Announcement(
                .notice,
                "otc-prompt: the audio file \(path) takes no more audio (\(failure)); announcements shown as text"))
        return true
    }
}
