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
            try startGate.withLock { () throws(SystemCallError) in
                try SystemCall.status("pthread_create") {
                    pthread_create(
                        &thread, nil,
                        { context in
                            Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue().body()
                            return nil
                        }, context)
                }
            }
        } catch {
            Unmanaged<ThreadBody>.fromOpaque(context).release()
            throw error
        }
        pthread_detach(thread)
    }
}

/// Held while one of the process's threads is started, and while a library that aborts when it cannot start a thread
/// of its own starts it (`whenOneCanStart`). The task limit (RLIMIT_NPROC) is the user's, shared by every thread, so a
/// probe is true only while no other thread of the process can be started between it and the library's.
private let startGate = ConditionLock()

extension DetachedThread {
    /// Runs `body` (a library's start, which starts a thread of its own and aborts when it cannot: espeak-ng's
    /// `fifo_init` asserts) when a thread can be started now; nil, without running it, when none can. No thread of
    /// this process starts in between, so only another process of the same user can take the free task first.
    /// Probing: one thread is started, ended, and waited for until the kernel has let its task go (its
    /// /proc/self/task entry is gone, when the task limit counts it no more), at most `within`.
    /// The corresponding C functions are `pthread_create`, `pthread_join`, `readlink` and `access`.
    public static func whenOneCanStart<T, E: Error>(
        within: Duration = .seconds(1), _ body: () throws(E) -> T
    ) throws(E) -> T? {
        try startGate.withLock { () throws(E) -> T? in
            guard canStartOne(within: within) else { return nil }
            return try body()
        }
    }

    private static func canStartOne(within: Duration) -> Bool {
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
        // Past the deadline the task may still count; the library's start is tried all the same.
        _ = Polling.until(within: within, every: .milliseconds(1)) { access("/proc/self/task/\(tid)", F_OK) != 0 }
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
