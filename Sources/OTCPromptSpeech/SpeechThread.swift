import OTCPromptSystem

#if canImport(Glibc)
    import Glibc
#endif

/// A mutex with one condition variable on the monotonic clock: the speech threads' only
/// synchronisation, so the input thread posts work without ever waiting on audio.
final class ConditionLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Waits for a broadcast; the lock must be held.
    func wait() {
        pthread_cond_wait(condition, mutex)
    }

    /// Waits for a broadcast or the monotonic `deadline`; returns false once the deadline has passed.
    @discardableResult
    func wait(until deadline: UInt64) -> Bool {
        if monotonicNanoseconds() >= deadline { return false }
        var time = MonotonicInstant(nanoseconds: Int64(clamping: deadline)).timespec
        return pthread_cond_timedwait(condition, mutex, &time) != ETIMEDOUT
    }

    func broadcast() {
        pthread_cond_broadcast(condition)
    }

    /// Runs `body` with the lock released, for calls that block (synthesis, device writes).
    func unlocked<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_unlock(mutex)
        defer { pthread_mutex_lock(mutex) }
        return try body()
    }
}

/// Nanoseconds on the monotonic clock: the door's one clock, as the speech threads' deadlines count it.
@inline(__always)
func monotonicNanoseconds() -> UInt64 {
    UInt64(clamping: MonotonicInstant.now.nanoseconds)
}

/// Starts a detached thread running `body`: the door's one thread starter. Speech cannot go on without
/// its threads, so failing to start one stops the process, as it always did.
func startThread(_ body: @escaping @Sendable () -> Void) {
    do {
        try DetachedThread.start(body)
    } catch {
        preconditionFailure("\(error)")
    }
}
