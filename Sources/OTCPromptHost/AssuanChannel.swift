// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptSystem

/// The pipe gpg-agent talks to a pinentry through: request lines on stdin, replies on stdout.
public final class AssuanChannel {
    /// What one read produced.
    public enum Received: Equatable, Sendable {
        /// One line, without its line feed.
        case line([UInt8])
        /// A line longer than the limit: libassuan gives up on the connection.
        case tooLong
        /// End of input (gpg-agent closed the pipe) or a read error.
        case closed
    }

    private let input: Int32
    private let output: Int32
    private var pending: [UInt8] = []

    public init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
        self.input = input
        self.output = output
    }

    /// Reads up to the next line feed, waiting as long as it takes.
    /// - Parameter limit: the most bytes a line may have, its line feed included.
    /// The corresponding C call is `read`.
    public func readLine(limit: Int) -> Received {
        while true {
            if let end = pending.firstIndex(of: 0x0A) {
                guard end < limit else { return .tooLong }
                let line = Array(pending[..<end])
                pending.removeSubrange(...end)
                return .line(line)
            }
            if pending.count >= limit { return .tooLong }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = buffer.withUnsafeMutableBytes { raw in
                SystemCall.retrying("read") {
                    Int32(truncatingIfNeeded: Glibc.read(input, raw.baseAddress, raw.count))
                }
            }
            if count <= 0 { return .closed }
            pending += buffer[..<Int(count)]
        }
    }

    /// The descriptors whose hang-up means gpg-agent has gone, for the dialog about to start
    /// (`Terminal.read(callerWatching:)` watches them): stdout, whose reader goes with the agent, and
    /// stdin unless requests are already queued after this one. gpg-agent waits for each reply, so
    /// nothing is queued and its end of file is its going; a script piped in whole (`printf … |
    /// pinentry-otc`) has only finished writing.
    public var callerDescriptors: [Int32] { hasQueuedRequests ? [output] : [input, output] }

    /// Whether gpg-agent has gone, without waiting: stdout's reader gone, or stdin at end of file
    /// with no request queued (nothing is read). The corresponding C call is `poll`.
    public var callerHasGone: Bool {
        let watched = callerDescriptors
        var descriptors = watched.map {
            pollfd(fd: $0, events: $0 == input ? SystemCalls.pollReadHangUp : 0, revents: 0)
        }
        let ready = SystemCall.retrying("poll") { poll(&descriptors, nfds_t(descriptors.count), 0) }
        return ready > 0 && descriptors.contains { $0.revents != 0 }
    }

    /// Lines already read and not yet handled, or bytes waiting in the pipe. The corresponding C call
    /// is `ioctl(FIONREAD)`.
    private var hasQueuedRequests: Bool {
        if !pending.isEmpty { return true }
        var count: Int32 = 0
        return ioctl(input, UInt(FIONREAD), &count) == 0 && count > 0
    }

    /// Writes each line followed by a line feed; false once gpg-agent has gone.
    @discardableResult
    public func write(lines: [String]) -> Bool {
        guard !lines.isEmpty else { return true }
        return SystemCalls.writeAll(lines.map { $0 + "\n" }.joined().utf8, to: output) == nil
    }

    /// Writes `bytes` as they are, from the caller's (locked) memory, with no copy on the heap.
    /// The corresponding C call is `write`.
    @discardableResult
    public func writeUncopied(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        SystemCalls.writeAll(raw: UnsafeRawBufferPointer(bytes), to: output) == nil
    }
}
