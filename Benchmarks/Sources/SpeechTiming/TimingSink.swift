import Glibc
import OTCPromptSpeech

/// Wraps a sink and timestamps what the writer asks of it: after `arm`, when the superseded audio
/// was stopped (the device acknowledged the synthesis thread's interrupt; with no device, the
/// writer's flush returned) and the start of the first write (new audio handed to the device).
public final class TimingSink: AudioSink, @unchecked Sendable {
    /// The real sink, or nil to discard audio at once (engine-only figures); set before use.
    public var inner: (any AudioSink)?
    private var mutex = pthread_mutex_t()
    private var armed = false
    /// Counts `arm` calls, so a late acknowledgement of an earlier key's interrupt is not counted.
    private var arms = 0
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
            arms += 1
            flushedAt = nil
            firstWriteAt = nil
            calls.removeAll(keepingCapacity: true)
        }
    }

    /// Waits (at most 2 s) for the first write after `arm`, and for the stale audio to be
    /// stopped; returns (stopped, first write) times. No stop comes when nothing was playing.
    public func waitForFirstWrite() -> (flushed: Double?, firstWrite: Double)? {
        let deadline = now() + 2000
        while now() < deadline {
            if let result = locked({ flushedAt.flatMap { stopped in firstWriteAt.map { (stopped, $0) } } }) {
                return result
            }
            usleep(50)
        }
        return locked { firstWriteAt.map { (flushedAt, $0) } }
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
        // A device's flush may return before it is done; only its acknowledgement counts.
        if inner == nil { stopped(arm: locked { arms }) }
    }

    public func interrupt(acknowledged: @escaping @Sendable () -> Void) {
        let start = now()
        let arm = locked { arms }
        inner?.interrupt { [self] in
            stopped(arm: arm)
            acknowledged()
        }
        log("interrupt", start)
    }

    private func stopped(arm: Int) {
        let time = now()
        locked { if arm == arms, flushedAt == nil { flushedAt = time } }
    }

    /// The real sink's pacing: the writer must treat the wrapped device exactly as the bare one.
    public var pacing: AudioPacing? { inner?.pacing }

    public func drain() { inner?.drain() }
    public func close() { inner?.close() }
}
