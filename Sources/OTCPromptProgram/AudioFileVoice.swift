import OTCPromptCore
import OTCPromptSpeech

/// espeak-ng speaking into `--audio-file`, as a voice that can stop: when the file takes no more audio (a
/// FIFO whose reader stopped reading or went away, `WAVFileSink`), it says why and hands back every
/// announcement that was not heard to its end, and `SpeechFallback` shows them as text. Keys never wait
/// for it: the sink's writes have a deadline on the writer thread, and this only asks whether they stopped.
///
/// A stop is seen only when it is asked about, at the next announcement or at the end: the engine says
/// during which announcement the file stopped, so what was given to it meanwhile is not lost.
final class AudioFileVoice: FallibleSpeechBackend {
    let engine: EspeakSpeechBackend
    private let path: String
    /// Given after the stop was seen: never given to the engine.
    private var unsaid: [Announcement] = []
    /// Given to the engine and possibly cut by the stop, with the engine's numbers: the newest, and the
    /// one before it (the file may have stopped during it just before the newest was given).
    private var given: [(number: UInt64, announcement: Announcement)] = []

    init(engine: EspeakSpeechBackend, path: String) {
        self.engine = engine
        self.path = path
    }

    var failure: SpeechFailure? { engine.audioFileFailure.map { .audioFileStopped(path: path, why: $0) } }

    func speak(_ announcement: Announcement) {
        guard failure == nil else { return unsaid.append(announcement) }
        given = given.suffix(1) + [(engine.speakNumbered(announcement), announcement)]
    }

    func finish(timeout: Duration) {
        engine.finish(timeout: timeout)
        // Stopped during the last words (or cut at the deadline after a stop): they are shown as text.
        if failure != nil, let last = given.last?.announcement, last.isFinal, unheard.last != last {
            unsaid.append(last)
        }
    }

    var isSpeaking: Bool { engine.isSpeaking }
    var progress: SpeechProgress? { engine.progress }

    func takeUnsaid() -> [Announcement] {
        defer {
            unsaid = []
            given = []
        }
        return unheard + unsaid
    }

    /// What the engine was given from the announcement the file stopped during on.
    private var unheard: [Announcement] {
        guard let stop = engine.audioFileStoppedDuring else { return [] }
        return given.filter { $0.number >= stop }.map(\.announcement)
    }
}
