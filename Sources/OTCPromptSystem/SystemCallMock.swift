// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc

#if DEBUG
    /// Test-only: makes the door fail a named call with a chosen errno, on the calling thread only (the tests
    /// of every module share one process and run in parallel). Compiled out of release builds, so the
    /// shipped binary has no hook and pays nothing for it. Modelled on swift-system's `Mocking.swift`.
    public enum SystemCallMock {
        /// One forced failure: the call's name, the thread it applies to, the errno, how many times left.
        @usableFromInline struct Forced {
            var call: String
            var thread: pthread_t
            var errno: Errno
            var times: Int
        }

        @usableFromInline nonisolated(unsafe) static var forced: [Forced] = []
        /// Read without the lock on every call: zero while no test forces anything.
        @usableFromInline nonisolated(unsafe) static var active = 0
        @usableFromInline nonisolated(unsafe) static var lock = pthread_mutex_t()

        /// Runs `body` with the next `times` calls named `call`, on this thread, failing with `errno`
        /// (EINTR: interrupted, then made again by the door's rule).
        public static func forcing<T>(
            _ errno: Errno, on call: String, times: Int = 1, _ body: () throws -> T
        ) rethrows -> T {
            pthread_mutex_lock(&lock)
            forced.append(Forced(call: call, thread: pthread_self(), errno: errno, times: times))
            active += 1
            pthread_mutex_unlock(&lock)
            defer {
                pthread_mutex_lock(&lock)
                forced.removeAll { $0.call == call && pthread_equal($0.thread, pthread_self()) != 0 }
                active -= 1
                pthread_mutex_unlock(&lock)
            }
            return try body()
        }

        /// The errno to fail `call` with now, on this thread, or nil to make the real call.
        @usableFromInline static func takeForcedErrno(for call: StaticString) -> Errno? {
            guard active > 0 else { return nil }
            pthread_mutex_lock(&lock)
            defer { pthread_mutex_unlock(&lock) }
            let name = "\(call)"
            guard
                let index = forced.firstIndex(where: {
                    $0.times > 0 && $0.call == name && pthread_equal($0.thread, pthread_self()) != 0
                })
            else { return nil }
            forced[index].times -= 1
            return forced[index].errno
        }
    }
#endif
