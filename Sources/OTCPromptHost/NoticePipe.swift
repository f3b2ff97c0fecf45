// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptSystem

/// Something happened on another thread, told through a pipe a `poll` wakes on: `post` writes one byte and never
/// waits, so it may be called from any thread (a voice's synthesis thread that let its device go); the listener polls
/// `descriptor` beside its others and empties it with `take`. Both ends close with it.
public final class NoticePipe: Sendable {
    /// Readable once something was posted and not yet taken.
    public let descriptor: Int32
    private let writeEnd: Int32

    /// The corresponding C calls are `pipe` and `fcntl` (the door's `wakeUpPipe`).
    public init() throws(HostError) {
        let ends = try SystemCalls.wakeUpPipe()
        descriptor = ends.read
        writeEnd = ends.write
    }

    deinit {
        close(descriptor)
        close(writeEnd)
    }

    /// Tells the listener; a full pipe already tells it. The corresponding C call is `write`.
    public func post() {
        _ = SystemCalls.writeWithoutWaiting([1], to: writeEnd)
    }

    /// Whether something was posted since the last call; the pipe is emptied. The corresponding C call is `read`.
    public func take() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 16)
        var posted = false
        while SystemCall.retrying("read", { read(descriptor, &buffer, buffer.count) }) > 0 { posted = true }
        return posted
    }

    /// Whether something was posted, without taking it (a relay's test, on its own thread). The corresponding C call
    /// is `poll`.
    public var isPending: Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return SystemCall.retrying("poll") { poll(&entry, 1, 0) } == 1
    }
}
