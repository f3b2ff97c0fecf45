import Foundation
import Glibc
import OTCPromptSystem

/// A unix-socket server that accepts every connection and never answers: a stuck pipewire-pulse or
/// speech-dispatcher, made in a test's own temporary directory (no wait without a deadline). Point
/// `PULSE_SERVER=unix:PATH` or `SPEECHD_ADDRESS=unix_socket:PATH` at `path`.
public final class SilentSocketServer: @unchecked Sendable {
    /// Where it listens.
    public let path: String
    /// The directory of its own, removed by `stop`; nil when the test named the path.
    public let directory: String?
    private let listener: Int32
    private let lock = NSLock()
    private var connections: [Int32] = []

    /// Listens at once in a directory of its own; connections are accepted on a thread of its own and held
    /// open, unread.
    public convenience init() throws {
        let directory = NSTemporaryDirectory() + "/otc-silent-\(UUID().uuidString.prefix(8))"
        guard mkdir(directory, 0o700) == 0 else { throw POSIXError(.EEXIST) }
        do {
            try self.init(path: directory + "/silent.sock", directory: directory)
        } catch {
            rmdir(directory)
            throw error
        }
    }

    /// Listens at once at `path`, in a directory the test made (and whose owner it sets).
    public convenience init(path: String) throws {
        try self.init(path: path, directory: nil)
    }

    private init(path: String, directory: String?) throws {
        self.path = path
        self.directory = directory
        guard let address = UnixSocketAddress(path: path) else { throw POSIXError(.ENAMETOOLONG) }
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let bound = address.withSocketAddress { bind(listener, $0, $1) }
        guard bound == 0, listen(listener, 16) == 0 else {
            Glibc.close(listener)
            throw POSIXError(.EADDRINUSE)
        }
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// How many connections have been accepted so far.
    public var connectionCount: Int { lock.withLock { connections.count } }

    /// Closes every connection and the listener, and removes the socket (and its directory, when its own).
    public func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        Glibc.close(listener)
        lock.withLock {
            for connection in connections { Glibc.close(connection) }
            connections = []
        }
        unlink(path)
        if let directory { rmdir(directory) }
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                return
            }
            lock.withLock { connections.append(connection) }
        }
    }
}
