import Glibc
import OTCPromptSpeech

/// Wraps a sink and timestamps what the writer asks of it: after `arm`, the end of the first
/// flush (superseded audio stopped) and the start of the first write after it (new audio handed
/// to the device).
public final class TimingSink: AudioSink, @unchecked Sendable {
    /// The real sink, or nil to discard audio at once (engine-only figures); set before use.
    public var inner: (any AudioSink)?
    private var mutex = pthread_mutex_t()
    private var armed = false
    private var flushedAt: Double?
    private var firstWriteAt: Double?
    public private(set) var samplesWritten = 0
    /// Every call since `arm` with its start and end (ms), for diagnosing slow keys.
    private var calls: [(name: String, start: Double, end: Double)] = []

    public init(_ inner: (any AudioSink)?) {
        self.inner = inner
        pthread_mutex_init(&mutex, nil)
    }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return body()
    }

    public func arm() {
        locked {
            armed = true
            flushedAt = nil
            firstWriteAt = nil
            calls.removeAll(keepingCapacity: true)
        }
    }

    /// Waits (at most 2 s) for the first write after `arm`; returns (flushed, first write) times.
    public func waitForFirstWrite() -> (flushed: Double?, firstWrite: Double)? {
        let deadline = now() + 2000
        while now() < deadline {
            if let result = locked({ firstWriteAt.map { (flushedAt, $0) } }) { return result }
            usleep(50)
        }
        return nil
    }

    /// The sink calls since `arm`, relative to `origin`.
    public func callLog(since origin: Double) -> String {
        locked { calls.map { "\($0.name) \(f($0.start - origin))-\(f($0.end - origin))" }.joined(separator: ", ") }
    }

    private func log(_ name: String, _ start: Double) {
        let end = now()
        locked { if calls.count < 32 { calls.append((name, start, end)) } }
    }

    public var totalSamples: Int { locked { samplesWritten } }

    public func write(_ samples: UnsafeBufferPointer<Int16>) {
        locked {
            if armed, firstWriteAt == nil {
                firstWriteAt = now()
                armed = false
            }
            samplesWritten += samples.count
        }
        let start = now()
        inner?.write(samples)
        log("write", start)
    }

    public func flush() {
        let start = now()
        inner?.flush()
        log("flush", start)
        let time = now()
        locked { if armed, flushedAt == nil { flushedAt = time } }
    }

    public func interrupt() {
        let start = now()
        inner?.interrupt()
        log("interrupt", start)
        let time = now()
        locked { if armed, flushedAt == nil { flushedAt = time } }
    }

    /// The real sink's pacing: the writer must treat the wrapped device exactly as the bare one.
    public var pacing: AudioPacing? { inner?.pacing }

    public func drain() { inner?.drain() }
    public func close() { inner?.close() }
}
