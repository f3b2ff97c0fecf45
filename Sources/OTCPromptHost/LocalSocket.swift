// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptSystem

/// A connected unix-domain stream socket (the speech server's), non-blocking, where every wait
/// has a deadline: a server that stops answering costs the caller at most that long.
public final class LocalSocket: @unchecked Sendable {
    /// The socket's path, for messages.
    public let path: String
    private var descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        close()
    }

    /// Connects to the stream socket at `path`, waiting at most `timeout`.
    /// - Parameter waitingForListener: try again every 20 ms while nothing listens yet (a server
    ///   being started), until `timeout`.
    /// - Throws: `.socket` (ENOENT, ECONNREFUSED: nothing listens there; ENAMETOOLONG), `.socketTimedOut`.
    /// The corresponding C functions are `socket` and `connect`.
    public static func connect(
        path: String, timeout: Duration, waitingForListener: Bool = false
    ) throws(HostError) -> LocalSocket {
        let deadline = MonotonicInstant.now + timeout
        while true {
            do {
                return try connectOnce(path: path, deadline: deadline)
            } catch .socket(_, let errno, "connect")
                where waitingForListener && (errno == .noSuchFileOrDirectory || errno == .connectionRefused)
                && MonotonicInstant.now < deadline
            {
                _ = poll(nil, 0, 20)
            }
        }
    }

    private static func connectOnce(path: String, deadline: MonotonicInstant) throws(HostError)
        -> LocalSocket
    {
        guard let address = UnixSocketAddress(path: path) else {
            throw .socket(path: path, .fileNameTooLong, call: "connect")
        }
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .socket(path: path, Errno.current, call: "socket") }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        let result = SystemCall.retrying("connect") {
            address.withSocketAddress { Glibc.connect(fd, $0, $1) }
        }
        let socket = LocalSocket(path: path, descriptor: fd)
        if result == 0 { return socket }
        let failure = Errno.current
        guard failure == .nowInProgress || failure == .resourceTemporarilyUnavailable else {
            throw .socket(path: path, failure, call: "connect")
        }
        try socket.wait(for: Int16(POLLOUT), until: deadline, call: "connect")
        var pending: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        _ = getsockopt(fd, SOL_SOCKET, SO_ERROR, &pending, &size)
        if pending != 0 { throw .socket(path: path, Errno(rawValue: pending), call: "connect") }
        return socket
    }

    /// The real uid of the process that listens on the other end, nil when the kernel does not say.
    /// The corresponding C call is `getsockopt(SO_PEERCRED)`.
    public var peerUID: UInt32? {
        // struct ucred (pid, uid, gid), which Glibc hides behind _GNU_SOURCE.
        var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
        var size = socklen_t(MemoryLayout.size(ofValue: credentials))
        guard getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &size) == 0, size == 12 else { return nil }
        return credentials.uid
    }

    /// Why the socket at `path` is not `uid`'s to use, nil when it is, or when there is nothing there (yet):
    /// the socket file (`FileTrust.socket`) must belong to `uid`, so no other user's server hears a code, and the
    /// directory that holds it must be one no other user can change (`directoryRefusal`). Lighter than a directory's
    /// own rule (not the directories above): the socket is where its server made it, and a connection's peer is
    /// judged on its own (`peerUID`) where the caller can. The corresponding C call is `lstat`.
    public static func foreignOwner(of path: String, uid: UInt32) -> String? {
        if let why = directoryRefusal(of: path, uid: uid) { return why }
        do { try FileTrust.socket(of: uid).check(path: path) } catch {
            switch error {
            case .unexaminable: return nil
            case .owner(let owner): return "the socket belongs to uid \(owner), not to you (uid \(uid))"
            default: return "\(path) is not a socket"
            }
        }
        return nil
    }

    /// Why the directory that holds the socket at `path` may not be trusted by `uid`, nil when it may, or when it is
    /// not there: it must be root's or `uid`'s, writable by no one else (a sticky one of root's excepted: /tmp), and
    /// no symbolic link (`FileTrust.socketDirectory`). A directory of root's is as safe as the user's own: root can
    /// read everything anyway. The corresponding C call is `lstat`.
    public static func directoryRefusal(of path: String, uid: UInt32) -> String? {
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let named = directory.isEmpty ? "/" : directory
        do { try FileTrust.socketDirectory(of: uid).check(path: named) } catch {
            switch error {
            case .unexaminable: return nil
            case .owner(let owner): return "its directory \(named) belongs to uid \(owner), not to you (uid \(uid))"
            default: return "its directory \(named): \(error)"
            }
        }
        return nil
    }

    /// Sends every byte, waiting at most `timeout` for room; a closed peer is an error, never SIGPIPE.
    /// The corresponding C function is `send`.
    public func send(_ bytes: [UInt8], timeout: Duration) throws(HostError) {
        let deadline = MonotonicInstant.now + timeout
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { raw in
                SystemCall.retrying("send") { Glibc.send(descriptor, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL)) }
            }
            if count >= 0 {
                sent += count
                continue
            }
            let failure = Errno.current
            guard failure == .resourceTemporarilyUnavailable else { throw .socket(path: path, failure, call: "send") }
            try wait(for: Int16(POLLOUT), until: deadline, call: "send")
        }
    }

    /// The bytes that arrive next, waiting at most `timeout` for the first of them.
    /// - Throws: `.socketClosed` when the peer has closed the connection, `.socketTimedOut`, `.socket`.
    /// The corresponding C functions are `poll` and `read`.
    public func receive(timeout: Duration) throws(HostError) -> [UInt8] {
        let deadline = MonotonicInstant.now + timeout
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { raw in
                SystemCall.retrying("read") { Glibc.read(descriptor, raw.baseAddress, raw.count) }
            }
            if count > 0 { return Array(buffer[0..<count]) }
            if count == 0 { throw .socketClosed(path: path) }
            let failure = Errno.current
            guard failure == .resourceTemporarilyUnavailable else { throw .socket(path: path, failure, call: "read") }
            try wait(for: Int16(POLLIN), until: deadline, call: "read")
        }
    }

    /// Whether bytes (or the peer's close) are waiting, without waiting. The corresponding C function is `poll`.
    public var hasInput: Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0
    }

    /// The descriptor, for a caller's `poll` to wake when input comes; nil once closed.
    public var readableDescriptor: Int32? { descriptor >= 0 ? descriptor : nil }

    /// Closes the connection; later calls fail with EBADF. The corresponding C function is `close`.
    public func close() {
        if descriptor >= 0 { _ = Glibc.close(descriptor) }
        descriptor = -1
    }

    private func wait(for events: Int16, until deadline: MonotonicInstant, call: String) throws(HostError) {
        while true {
            let milliseconds = MonotonicInstant.now.duration(to: deadline).pollTimeout
            var entry = pollfd(fd: descriptor, events: events, revents: 0)
            let ready = SystemCall.retrying("poll") { poll(&entry, 1, milliseconds) }
            if ready > 0 { return }
            if ready < 0 { throw .socket(path: path, Errno.current, call: "poll") }
            throw .socketTimedOut(path: path, call: call)
        }
    }
}
