import OTCPromptSystem

/// A sink being opened on a thread of its own (see `SynthesisThread.start`).
final class SinkOpening: @unchecked Sendable {
    private let lock = ConditionLock()
    private var result: Result<any AudioSink, SpeechError>?

    /// - Parameter failed: called on the opening's thread when the sink cannot be had.
    init(rate: Int, makeSink: @escaping AudioSinkFactory, failed: @escaping @Sendable (SpeechError) -> Void) {
        do {
            try startThread { [self] in
                let opened = Result { () throws(SpeechError) in try makeSink(rate) }
                if case .failure(let error) = opened { failed(error) }
                lock.withLock {
                    result = opened
                    lock.broadcast()
                }
            }
        } catch {
            result = .failure(error)
        }
    }

    /// The sink, or why it could not be opened, once the opening has ended.
    func wait() -> Result<any AudioSink, SpeechError> {
        lock.withLock {
            while true {
                if let result { return result }
                lock.wait()
            }
        }
    }
}
