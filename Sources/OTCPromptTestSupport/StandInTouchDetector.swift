// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptSystem
import Testing

/// A stand-in yubikey-touch-detector: a stream socket at `$XDG_RUNTIME_DIR/yubikey-touch-detector.socket`, as
/// the detector's unix-socket notifier listens, sending its messages as given; stopped, it removes its socket and
/// closes its connections, as the detector's listener does on exit.
public final class StandInTouchDetector {
    /// Where the detector listens in its runtime directory.
    public static let socketName = "yubikey-touch-detector.socket"

    public let path: String
    private let listener: Int32
    private var client: Int32 = -1
    private var stopped = false

    /// Listening at `socketName` in `directory`.
    public convenience init(directory: String) throws {
        try self.init(path: directory + "/" + Self.socketName)
    }

    /// Listening at `path`.
    public init(path: String) throws {
        self.path = path
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let address = try #require(UnixSocketAddress(path: path), "\(path) is too long")
        let bound = address.withSocketAddress { bind(listener, $0, $1) }
        try #require(bound == 0 && listen(listener, 4) == 0, "bind \(path): errno \(errno)")
    }

    /// Takes the watcher's connection, waiting at most 10 s. Close-on-exec: a program another test spawns meanwhile
    /// would keep it open, and the watcher would hear of its end only when that program ended.
    public func accept() -> Bool {
        var entry = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, 10_000) == 1 else { return false }
        client = acceptClosingOnExec(listener, nil, nil, Int32(SOCK_CLOEXEC.rawValue))
        return client >= 0
    }

    public func send(_ message: String) { _ = Glibc.send(client, message, message.utf8.count, Int32(MSG_NOSIGNAL)) }

    /// Stops as the detector does: the socket file removed, every connection closed. Idempotent: a descriptor
    /// closed twice could be another test's by then.
    public func stop() {
        guard !stopped else { return }
        stopped = true
        unlink(path)
        if client >= 0 { close(client) }
        client = -1
        close(listener)
    }
}

/// accept4(2), which Glibc's module map leaves out (it is a GNU extension): the descriptor is close-on-exec from the
/// start, with no moment a program spawned by another thread could inherit it.
@_silgen_name("accept4")
private func acceptClosingOnExec(
    _ socket: Int32, _ address: UnsafeMutablePointer<sockaddr>?, _ length: UnsafeMutablePointer<socklen_t>?,
    _ flags: Int32
) -> Int32
