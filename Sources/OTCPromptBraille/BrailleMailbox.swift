import OTCPromptCore
import OTCPromptSystem

#if canImport(Glibc)
    import Glibc
#endif

/// What passes between the prompt's loop and the braille thread, under one mutex: the newest view (an older one not
/// yet shown is superseded), the requests to give the display back and to close, and the keys typed on the display.
/// Two pipes wake each side: the thread polls `wake` beside its BrlAPI socket, the loop polls `keys` beside the
/// terminal; the thread closes its end of `keys` when it ends, which the loop sees as end of file.
final class BrailleMailbox: @unchecked Sendable {
    private let lock = ConditionLock()
    /// Read by the thread; written by the loop.
    let wake: (read: Int32, write: Int32)
    /// Read by the loop; written by the thread, closed when it ends.
    let keys: (read: Int32, write: Int32)

    private var view: SessionView?
    private var releases = 0
    private var released = 0
    private var closing = false
    private var ended = false
    private var typed: [Key] = []

    init() throws(SystemCallError) {
        wake = try SystemCall.wakeUpPipe()
        keys = try SystemCall.wakeUpPipe()
    }

    deinit {
        for descriptor in [wake.read, wake.write, keys.read] { Glibc.close(descriptor) }
        if !ended { Glibc.close(keys.write) }
    }

    private func locked<T>(_ body: () -> T) -> T {
        lock.withLock(body)
    }

    private static func poke(_ descriptor: Int32) {
        var byte: UInt8 = 1
        _ = SystemCall.retrying("write") { Glibc.write(descriptor, &byte, 1) }
    }

    /// Empties a pipe; false once its writer has closed it. The corresponding C function is `read`.
    static func drain(_ descriptor: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = SystemCall.retrying("read") { Glibc.read(descriptor, &buffer, buffer.count) }
            if count == 0 { return false }
            if count < 0 { return true }
        }
    }

    // The loop's side.

    func post(_ view: SessionView) {
        locked { self.view = view }
        Self.poke(wake.write)
    }

    /// Asks the thread to give the display back and waits for it, at most `limit`: the process may be stopped next,
    /// and a display held by a stopped prompt would show it over the shell.
    func release(waitingAtMost limit: Duration) {
        let wanted: Int = locked {
            releases += 1
            return releases
        }
        Self.poke(wake.write)
        waitUntil(limit) { released >= wanted || ended }
    }

    /// Asks the thread to give the display back and close, and waits for it to end, at most `limit`.
    func close(waitingAtMost limit: Duration) {
        locked { closing = true }
        Self.poke(wake.write)
        waitUntil(limit) { ended }
    }

    func takeKeys() -> [Key] {
        locked {
            defer { typed = [] }
            return typed
        }
    }

    private func waitUntil(_ limit: Duration, _ done: () -> Bool) {
        let deadline = MonotonicInstant.now + limit
        lock.withLock {
            while !done() && lock.wait(until: deadline) {}
        }
    }

    // The thread's side.

    /// What the loop asked for since the last call: the newest view, whether to release, whether to close.
    func take() -> (view: SessionView?, release: Int?, close: Bool) {
        locked {
            defer { view = nil }
            return (view, releases > released ? releases : nil, closing)
        }
    }

    func acknowledgeRelease(_ generation: Int) {
        locked {
            released = max(released, generation)
            lock.broadcast()
        }
    }

    func deliver(_ new: [Key]) {
        guard !new.isEmpty else { return }
        locked { typed += new }
        Self.poke(keys.write)
    }

    /// The thread has ended: the loop sees the keys pipe close, and waits for nothing more.
    func end() {
        locked {
            ended = true
            Glibc.close(keys.write)
            lock.broadcast()
        }
    }
}
