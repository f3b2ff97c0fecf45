// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc

/// Work that may wait on an outside component (the audio server, speech-dispatcher), run on a
/// thread of its own so the prompt's thread never waits for it; its end is a readable descriptor,
/// so the prompt's one `poll` covers the terminal, the signals and it together.
///
/// The thread is detached: a task that never ends does not keep the process alive.
public final class BackgroundTask<Value: Sendable>: @unchecked Sendable {
    /// Readable (one byte) once the task has ended; for `poll`.
    public let descriptor: Int32
    private let writeEnd: Int32
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var value: Value?

    /// What a bounded wait for the task ended with.
    public enum Wait: Sendable {
        case finished(Value)
        case timedOut
        /// A watched signal arrived first (its number); the caller decides what it means.
        case signal(Int32)
    }

    /// Starts `body` on a new thread.
    /// - Throws: `.system` when no pipe or thread can be had (then nothing runs).
    /// The corresponding C functions are `pipe` and `pthread_create`.
    public init(_ body: @escaping @Sendable () -> Value) throws(TerminalError) {
        let ends = try SystemCalls.wakeUpPipe()
        descriptor = ends.read
        writeEnd = ends.write
        pthread_mutex_init(lock, nil)
        let started = detachThread { [self] in
            let result = body()
            pthread_mutex_lock(lock)
            value = result
            pthread_mutex_unlock(lock)
            var byte: UInt8 = 1
            _ = write(writeEnd, &byte, 1)
        }
        guard started == 0 else {
            _ = close(ends.read)
            _ = close(ends.write)
            throw .system(Errno(rawValue: started), call: "pthread_create")
        }
    }

    /// The task's thread holds a reference until it ends, so this runs only once it has.
    deinit {
        _ = close(descriptor)
        _ = close(writeEnd)
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    /// The result once the task has ended, without waiting; nil while it runs.
    public var result: Value? {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return value
    }

    /// Waits at most `timeout` for the task to end, waking for `signals` too.
    /// The corresponding C function is `poll`.
    public func wait(timeout: Duration, signals: SignalWatcher?) -> Wait {
        let deadline = MonotonicInstant.now.advanced(by: timeout)
        while true {
            if let signal = signals?.takePendingSignal() { return .signal(signal) }
            if let result { return .finished(result) }
            let left = Terminal.pollMilliseconds(until: deadline, now: MonotonicInstant.now)
            if left == 0 { return .timedOut }
            var descriptors = [
                pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: signals?.descriptor ?? -1, events: Int16(POLLIN), revents: 0),
            ]
            _ = poll(&descriptors, nfds_t(descriptors.count), left)
        }
    }
}

/// Starts `body` on a detached POSIX thread; returns pthread_create's status.
func detachThread(_ body: @escaping () -> Void) -> Int32 {
    let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    var thread = pthread_t()
    let status = pthread_create(
        &thread, nil,
        { context in
            Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue().body()
            return nil
        }, context)
    if status == 0 {
        pthread_detach(thread)
    } else {
        Unmanaged<ThreadBody>.fromOpaque(context).release()
    }
    return status
}

/// A thread's work, passed through pthread_create's one pointer.
private final class ThreadBody {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}
