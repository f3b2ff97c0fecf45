// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc

/// A mutex with one condition variable on the monotonic clock, the one every thread hand-over uses (the speech
/// threads, the braille thread's mailbox): a deadline is a `MonotonicInstant`, so a change of the wall clock neither
/// cuts a wait short nor stretches it.
public final class ConditionLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    /// The corresponding C functions are `pthread_mutex_init`, `pthread_condattr_setclock` and `pthread_cond_init`.
    public init() {
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

    /// Runs `body` with the lock held.
    public func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Waits for a broadcast; the lock must be held. The corresponding C function is `pthread_cond_wait`.
    public func wait() {
        pthread_cond_wait(condition, mutex)
    }

    /// Waits for a broadcast or `deadline`, the lock held; false once the deadline has passed.
    /// The corresponding C function is `pthread_cond_timedwait`.
    @discardableResult
    public func wait(until deadline: MonotonicInstant) -> Bool {
        if MonotonicInstant.now >= deadline { return false }
        var time = deadline.timespec
        return pthread_cond_timedwait(condition, mutex, &time) != ETIMEDOUT
    }

    /// Wakes every waiter; the lock should be held. The corresponding C function is `pthread_cond_broadcast`.
    public func broadcast() {
        pthread_cond_broadcast(condition)
    }

    /// Runs `body` with the lock released, for calls that block (synthesis, device writes); the lock must be held.
    public func unlocked<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_unlock(mutex)
        defer { pthread_mutex_lock(mutex) }
        return try body()
    }
}
