// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc

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
                SystemCalls.retryingOnInterrupt {
                    Int32(truncatingIfNeeded: Glibc.read(input, raw.baseAddress, raw.count))
                }
            }
            if count <= 0 { return .closed }
            pending += buffer[..<Int(count)]
        }
    }

    /// The descriptors whose hang-up means gpg-agent has gone (`Terminal.read(callerWatching:)`
    /// watches them during a dialog).
    public var callerDescriptors: [Int32] { [input, output] }

    /// Whether gpg-agent has gone, without waiting: end of file or hang-up on the input (nothing is
    /// read), or the output's reader gone. The corresponding C call is `poll`.
    public var callerHasGone: Bool {
        var descriptors = [
            pollfd(fd: input, events: Terminal.pollReadHangUp, revents: 0), pollfd(fd: output, events: 0, revents: 0),
        ]
        guard SystemCalls.retryingOnInterrupt({ poll(&descriptors, 2, 0) }) > 0 else { return false }
        return descriptors.contains { $0.revents != 0 }
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

/// Memory for a secret on its way out: kept out of swap where RLIMIT_MEMLOCK allows, and
/// overwritten before it is given back.
public final class LockedBytes {
    public let bytes: UnsafeMutableBufferPointer<UInt8>
    /// Whether `mlock` succeeded.
    public let isLocked: Bool

    /// The corresponding C call is `mlock`.
    public init(count: Int) {
        bytes = .allocate(capacity: max(1, count))
        bytes.initialize(repeating: 0)
        isLocked = mlock(bytes.baseAddress!, bytes.count) == 0
    }

    deinit {
        wipe()
        if isLocked { _ = munlock(bytes.baseAddress!, bytes.count) }
        bytes.deallocate()
    }

    /// Overwrites every byte; the compiler may not drop it as a dead store. The corresponding C
    /// call is `explicit_bzero`.
    public func wipe() {
        explicit_bzero(bytes.baseAddress!, bytes.count)
    }
}
