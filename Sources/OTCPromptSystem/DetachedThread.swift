// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc

/// The one way every module starts a thread: a detached POSIX thread, so one that never ends does not keep
/// the process alive, and no Foundation or Swift Concurrency on the start-up path.
public enum DetachedThread {
    /// Starts `body` on a new detached thread.
    /// - Throws: the door's error when no thread can be had (then nothing runs).
    /// The corresponding C functions are `pthread_create` and `pthread_detach`.
    public static func start(_ body: @escaping @Sendable () -> Void) throws(SystemCallError) {
        let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
        var thread = pthread_t()
        // Signals are the main thread's alone (`SignalWatcher`): the thread starts with all of them blocked, as do
        // the threads it starts in turn (a library's). Otherwise one could take a signal the main thread has
        // blocked to hold it (the password agent's renewal), and its handler's byte would be lost with the pipe.
        var all = sigset_t()
        var previous = sigset_t()
        sigfillset(&all)
        pthread_sigmask(SIG_BLOCK, &all, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        do {
            try SystemCall.status("pthread_create") {
                pthread_create(
                    &thread, nil,
                    { context in
                        Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue().body()
                        return nil
                    }, context)
            }
        } catch {
            Unmanaged<ThreadBody>.fromOpaque(context).release()
            throw error
        }
        pthread_detach(thread)
    }
}

/// A thread's work, passed through pthread_create's one pointer.
private final class ThreadBody {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}
