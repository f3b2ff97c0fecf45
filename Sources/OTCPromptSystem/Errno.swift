// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc

/// An errno value, typed: what a failed call left in `errno`, told in the C library's words.
public struct Errno: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: Int32

    @inlinable public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's errno. The corresponding C variable is `errno`.
    @inlinable public static var current: Errno { Errno(rawValue: Glibc.errno) }

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
    public static let timedOut = Errno(rawValue: ETIMEDOUT)
    public static let ioError = Errno(rawValue: EIO)
}

/// A system call that failed: its errno and its name, the door's one error type.
public struct SystemCallError: Error, Equatable, Sendable, CustomStringConvertible {
    public var errno: Errno
    /// The C function, e.g. "open".
    public var call: String

    @inlinable public init(_ errno: Errno, call: String) {
        self.errno = errno
        self.call = call
    }

    public var description: String { "\(call) failed: \(errno.description)" }
}
