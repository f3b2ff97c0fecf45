import OTCPromptSystem

/// A PulseAudio stream opened from the first moment of the process (`EspeakSpeechBackend.prepare`),
/// beside the options' parsing, and taken by the first engine that opens the default device. Only
/// PulseAudio is tried here; when it fails, the engine opens the device as usual.
final class PreparedStream: @unchecked Sendable {
    static let shared = PreparedStream()

    private enum State {
        case none
        case opening
        case opened(Result<PulseAudioSink, SpeechError>)
        case taken
    }

    private let lock = ConditionLock()
    private var state = State.none

    /// Starts opening the stream at espeak-ng's usual rate, on a thread of its own; once per process.
    func start() {
        // A refused PulseAudio is never connected to; the engine's `openDevice` says why.
        guard PulseAudioRefusal.reason == nil else { return }
        let starts = lock.withLock {
            guard case .none = state else { return false }
            state = .opening
            return true
        }
        guard starts else { return }
        do {
            try startThread { [self] in
                // Not inside a StderrCapture: this runs from the process's first moment, beside the terminal's
                // opening, and a capture then swallowed otc-prompt's own messages ("no terminal", the config
                // file's problems). A refused PulseAudio never gets here (`PulseAudioRefusal`).
                let opened = Result { () throws(SpeechError) in
                    try PulseAudioSink(sampleRate: EspeakEngine.usualSampleRate)
                }
                lock.withLock {
                    state = .opened(opened)
                    lock.broadcast()
                }
            }
        } catch {
            lock.withLock {
                state = .opened(.failure(error))
                lock.broadcast()
            }
        }
    }

    /// The prepared stream's outcome, waiting for its opening to end (within the stream's own
    /// deadline); nil when none was prepared or it has been taken already.
    func take() -> Result<PulseAudioSink, SpeechError>? {
        lock.withLock {
            while true {
                switch state {
                case .none, .taken: return nil
                case .opening: lock.wait()
                case .opened(let result):
                    state = .taken
                    return result
                }
            }
        }
    }
}
