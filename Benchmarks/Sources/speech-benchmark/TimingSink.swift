import Glibc
import OTCPromptSpeech

/// Wraps a sink and timestamps what the writer asks of it: after `arm`, the end of the first
/// flush (superseded audio stopped) and the start of the first write after it (new audio handed
/// to the device).
final class TimingSink: AudioSink, @unchecked Sendable {
    /// The real sink, or nil to discard audio at once (engine-only figures); set before use.
    var inner: (any AudioSink)?
    private var mutex = pthread_mutex_t()
    private var armed = false
    private var flushedAt: Double?
    private var firstWriteAt: Double?
    private(set) var samplesWritten = 0

    init(_ inner: (any AudioSink)?) {
        self.inner = inner
        pthread_mutex_init(&mutex, nil)
    }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return body()
    }

    func arm() {
        locked {
            armed = true
            flushedAt = nil
            firstWriteAt = nil
        }
    }

    /// Waits (at most 2 s) for the first write after `arm`; returns (flushed, first write) times.
    func waitForFirstWrite() -> (flushed: Double?, firstWrite: Double)? {
        let deadline = now() + 2000
        while now() < deadline {
            if let result = locked({ firstWriteAt.map { (flushedAt, $0) } }) { return result }
            usleep(50)
        }
        return nil
    }

    var totalSamples: Int { locked { samplesWritten } }

    func write(_ samples: UnsafeBufferPointer<Int16>) {
        locked {
            if armed, firstWriteAt == nil {
                firstWriteAt = now()
                armed = false
            }
            samplesWritten += samples.count
        }
        inner?.write(samples)
    }

    func flush() {
        inner?.flush()
        let time = now()
        locked { if armed, flushedAt == nil { flushedAt = time } }
    }

    func interrupt() {
        inner?.interrupt()
        let time = now()
        locked { if armed, flushedAt == nil { flushedAt = time } }
    }

    func drain() { inner?.drain() }
    func close() { inner?.close() }
}
