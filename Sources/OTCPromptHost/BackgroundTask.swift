// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptSystem

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
    /// The corresponding C functions are `pipe` and `pthread_create` (the door's `DetachedThread`).
    public init(_ body: @escaping @Sendable () -> Value) throws(HostError) {
        let ends = try SystemCalls.wakeUpPipe()
        descriptor = ends.read
        writeEnd = ends.write
        pthread_mutex_init(lock, nil)
        do {
            try DetachedThread.start { [self] in
                let result = body()
                pthread_mutex_lock(lock)
                value = result
                pthread_mutex_unlock(lock)
                _ = SystemCalls.writeWithoutWaiting([1], to: writeEnd)
            }
        } catch {
            // The task is whole by now, so its deinit closes both ends: closed here as well, either number could
            // by then be another thread's new descriptor.
            throw HostError(error)
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

    /// Waits at most `timeout` for the task to end, waking for `signals` too: one that ends the process is returned;
    /// a new window size, a child's end or a continue end nothing, and a stop (SIGTSTP) is raised again once the
    /// wait is over, for the prompt to take as a job's. The corresponding C functions are `poll` and `raise`.
    public func wait(timeout: Duration, signals: SignalWatcher?) -> Wait {
        let deadline = MonotonicInstant.now.advanced(by: timeout)
        var stopped = false
        defer { if stopped { _ = raise(SIGTSTP) } }
        while true {
            if let signal = signals?.takePendingSignal() {
                switch signal {
                case SIGWINCH, SIGCHLD, SIGCONT: continue
                case SIGTSTP:
                    stopped = true
                    continue
                default: return .signal(signal)
                }
            }
            if let result { return .finished(result) }
            let left = MonotonicInstant.now.duration(to: deadline).pollTimeout
            if left == 0 { return .timedOut }
            var descriptors = [
                pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: signals?.descriptor ?? -1, events: Int16(POLLIN), revents: 0),
            ]
            _ = SystemCall.retrying("poll") { poll(&descriptors, nfds_t(descriptors.count), left) }
        }
    }
}
