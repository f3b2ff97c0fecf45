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

extension DetachedThread {
    /// Whether a thread can be started now: one is started, ended, and waited for until the kernel has let its task go
    /// (its /proc/self/task entry is gone, when the task limit counts it no more), at most `within`. For a library
    /// that starts a thread of its own and aborts when it cannot (espeak-ng's `fifo_init` asserts).
    /// The corresponding C functions are `pthread_create`, `pthread_join`, `readlink` and `access`.
    public static func canStartOne(within: Duration = .milliseconds(200)) -> Bool {
        var thread = pthread_t()
        var all = sigset_t()
        var previous = sigset_t()
        sigfillset(&all)
        pthread_sigmask(SIG_BLOCK, &all, &previous)
        let made = pthread_create(&thread, nil, { _ in UnsafeMutableRawPointer(bitPattern: ownTaskID()) }, nil)
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        guard made == 0 else { return false }
        var result: UnsafeMutableRawPointer?
        pthread_join(thread, &result)
        let tid = Int(bitPattern: result)
        guard tid > 0 else { return true }
        let deadline = MonotonicInstant.now.advanced(by: within)
        while access("/proc/self/task/\(tid)", F_OK) == 0 {
            guard MonotonicInstant.now < deadline else { return true }
            var pause = timespec(tv_sec: 0, tv_nsec: 1_000_000)
            nanosleep(&pause, nil)
        }
        return true
    }
}

/// The calling thread's task id, from /proc/thread-self ("PID/task/TID"); 0 when it cannot be read.
/// The corresponding C function is `readlink`.
private func ownTaskID() -> Int {
    var buffer = [CChar](repeating: 0, count: 64)
    let count = readlink("/proc/thread-self", &buffer, buffer.count - 1)
    guard count > 0 else { return 0 }
    let link = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return link.split(separator: "/").last.flatMap { Int($0) } ?? 0
}

/// A thread's work, passed through pthread_create's one pointer.
private final class ThreadBody {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}
