import Foundation
import Glibc
import OTCPromptSystem

/// A socket relay between an SSIP client and a `PrivateSpeechDispatcher` that keeps every line
/// the client sent, so a test asserts what the server was asked (and in which order).
public final class SSIPRecordingProxy: @unchecked Sendable {
    public let path: String
    private let serverPath: String
    private let listener: Int32
    private let lock = NSLock()
    private var sent: [String] = []
    private var partial: [UInt8] = []

    /// Listens on `path` and relays each connection to the server at `serverPath`.
    public init(path: String, serverPath: String) throws {
        self.path = path
        self.serverPath = serverPath
        guard let address = UnixSocketAddress(path: path), UnixSocketAddress(path: serverPath) != nil else {
            throw POSIXError(.ENAMETOOLONG)
        }
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        let bound = address.withSocketAddress { bind(listener, $0, $1) }
        guard bound == 0, listen(listener, 8) == 0 else { throw POSIXError(.EADDRINUSE) }
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// Every line the clients sent, in order, without line endings.
    public var lines: [String] { lock.withLock { sent } }

    /// Stops accepting; relays already running end when their client or the server closes.
    public func close() {
        shutdown(listener, Int32(SHUT_RDWR))
        Glibc.close(listener)
        unlink(path)
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 { return }
            let server = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            let connected = UnixSocketAddress(path: serverPath)?.withSocketAddress { connect(server, $0, $1) }
            if connected != 0 {
                Glibc.close(client)
                Glibc.close(server)
                continue
            }
            Thread.detachNewThread { [self] in relay(client: client, server: server) }
        }
    }

    private func relay(client: Int32, server: Int32) {
        defer {
            Glibc.close(client)
            Glibc.close(server)
        }
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            var entries = [
                pollfd(fd: client, events: Int16(POLLIN), revents: 0),
                pollfd(fd: server, events: Int16(POLLIN), revents: 0),
            ]
            guard poll(&entries, 2, 60_000) > 0 else { return }
            for (index, entry) in entries.enumerated() where entry.revents != 0 {
                let count = read(entry.fd, &buffer, buffer.count)
                if count <= 0 { return }
                let bytes = Array(buffer[0..<count])
                if index == 0 { record(bytes) }
                var written = 0
                while written < count {
                    let result = send(
                        index == 0 ? server : client, Array(bytes[written...]), count - written, Int32(MSG_NOSIGNAL))
                    if result <= 0 { return }
                    written += result
                }
            }
        }
    }

    private func record(_ bytes: [UInt8]) {
        lock.withLock {
            partial += bytes
            while let newline = partial.firstIndex(of: 10) {
                var line = String(decoding: partial[..<newline], as: UTF8.self)
                if line.hasSuffix("\r") { line.removeLast() }
                sent.append(line)
                partial.removeSubrange(...newline)
            }
        }
    }
}
