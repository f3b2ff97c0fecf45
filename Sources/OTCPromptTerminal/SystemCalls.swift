// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc

/// An errno value, typed: what a failed call left in `errno`, told in the C library's words.
public struct Errno: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The C library's message (`strerror`), e.g. "No such file or directory".
    public var description: String { String(cString: strerror(rawValue)) }

    public static let noSuchFileOrDirectory = Errno(rawValue: ENOENT)
    public static let interrupted = Errno(rawValue: EINTR)
    public static let noSuchAddressOrDevice = Errno(rawValue: ENXIO)
    public static let badFileDescriptor = Errno(rawValue: EBADF)
    public static let resourceTemporarilyUnavailable = Errno(rawValue: EAGAIN)
    public static let inappropriateIOCTLForDevice = Errno(rawValue: ENOTTY)
    public static let brokenPipe = Errno(rawValue: EPIPE)
    public static let nowInProgress = Errno(rawValue: EINPROGRESS)
    public static let connectionRefused = Errno(rawValue: ECONNREFUSED)
    public static let tooManySymbolicLinkLevels = Errno(rawValue: ELOOP)
    public static let fileNameTooLong = Errno(rawValue: ENAMETOOLONG)
}

/// How a child process ended, from its `waitpid` status: the one place that status is decoded.
enum ProcessEnd: Equatable {
    case exited(Int32)
    case killed(by: Int32)

    init(waitStatus status: Int32) {
        let signal = status & 0x7F
        self = signal == 0 ? .exited((status >> 8) & 0xFF) : .killed(by: signal)
    }

    /// The shell's number for it: the exit status, or 128 plus the signal.
    var shellStatus: Int32 {
        switch self {
        case .exited(let status): status
        case .killed(let signal): 128 + signal
        }
    }
}

/// The calls every file of this module shares: errno as a value, EINTR retries and complete writes.
enum SystemCalls {
    /// The calling thread's errno, typed.
    static var errno: Errno { Errno(rawValue: Glibc.errno) }

    /// A pipe whose ends are close-on-exec and non-blocking: a self-pipe that wakes a `poll` (signals, a
    /// background task's end) and never blocks the one who writes it. The corresponding C calls are `pipe` and
    /// `fcntl` (Glibc's module map does not offer `pipe2`).
    static func wakeUpPipe() throws(TerminalError) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw .system(errno, call: "pipe") }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        return (ends[0], ends[1])
    }

    /// Runs `call` until it stops failing with EINTR; returns its result (or -1 with errno set).
    static func retryingOnInterrupt<Result: BinaryInteger>(_ call: () -> Result) -> Result {
        while true {
            let result = call()
            if result == -1 && Glibc.errno == EINTR { continue }
            return result
        }
    }

    /// Writes as much of `bytes` as `descriptor` takes without waiting: stops at the end, at EAGAIN
    /// (a full non-blocking pipe) or at an error, retrying EINTR; returns how many bytes went out
    /// (errno says why it stopped early). The corresponding C function is `write`.
    static func writeWithoutWaiting(_ bytes: [UInt8], to descriptor: Int32) -> Int {
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { raw in
                retryingOnInterrupt { Int32(truncatingIfNeeded: Glibc.write(descriptor, raw.baseAddress, raw.count)) }
            }
            if count <= 0 { break }
            written += Int(count)
        }
        return written
    }

    /// Writes every byte to `descriptor`, looping on partial writes, EINTR and EAGAIN (a non-blocking
    /// descriptor is waited for with poll); returns the error that stopped it, nil when all was written.
    /// The corresponding C function is `write`.
    static func writeAll(_ bytes: some Collection<UInt8>, to descriptor: Int32) -> Errno? {
        Array(bytes).withUnsafeBytes { writeAll(raw: $0, to: descriptor) }
    }

    /// `writeAll` from memory the caller owns (a secret in locked memory), with no copy. On a non-blocking
    /// descriptor that is full, it waits for room, at most `patience` in all when given (then ETIMEDOUT).
    /// The corresponding C functions are `write` and `poll`.
    static func writeAll(
        raw: UnsafeRawBufferPointer, to descriptor: Int32, patience: Duration? = nil
    ) -> Errno? {
        let deadline = patience.map { MonotonicInstant.now + $0 }
        var written = 0
        while written < raw.count {
            let result = Glibc.write(descriptor, raw.baseAddress! + written, raw.count - written)
            if result >= 0 {
                written += result
                continue
            }
            let failure = Glibc.errno
            if failure == EINTR { continue }
            if failure == EAGAIN || failure == EWOULDBLOCK {
                var timeout: Int32 = -1
                if let deadline {
                    let left = MonotonicInstant.now.duration(to: deadline)
                    guard left > .zero else { return Errno(rawValue: ETIMEDOUT) }
                    timeout = Int32(
                        clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
                            + 1)
                }
                var waitFor = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&waitFor, 1, timeout)
                continue
            }
            return Errno(rawValue: failure)
        }
        return nil
    }
}
