import Foundation
import Glibc

/// A TCP relay between BrlAPI clients and a `PrivateBrltty`, on a server number of its own, that keeps every byte the
/// clients send: what reached the BrlAPI socket, for the tests that nothing of a masked field does, and the time each
/// write packet arrived. Runs as the test's user, so the prompt takes it for its own server.
public final class BrlAPIRecordingProxy: @unchecked Sendable {
    /// BRLAPI_HOST for a client: `127.0.0.1:N`.
    public let host: String
    private let listener: Int32
    private let target: Int
    private let lock = NSLock()
    private var received: [UInt8] = []
    private var packets: [(type: UInt32, at: ContinuousClock.Instant)] = []

    /// Relays to the BrlAPI server at TCP port `targetPort` on this machine; nil when no port could be had.
    public init?(targetPort: Int) {
        target = targetPort
        listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var number = 0
        for _ in 0..<50 {
            let candidate = Int.random(in: 3000...9000)
            if Self.bind(listener, port: 4101 + candidate) {
                number = candidate
                break
            }
        }
        guard number != 0, listen(listener, 4) == 0 else {
            close(listener)
            return nil
        }
        host = "127.0.0.1:\(number)"
        Thread.detachNewThread { [self] in acceptClients() }
    }

    deinit { close(listener) }

    /// Everything the clients sent so far.
    public var bytes: [UInt8] { lock.withLock { received } }

    /// Each BrlAPI packet the clients sent, by type ("w" is a write), with when its header arrived.
    public var sentPackets: [(type: UInt32, at: ContinuousClock.Instant)] { lock.withLock { packets } }

    private static func bind(_ descriptor: Int32, port: Int) -> Bool {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    private func acceptClients() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(target).bigEndian)
            address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
            guard connected else {
                close(client)
                close(server)
                continue
            }
            Thread.detachNewThread { [self] in relay(from: client, to: server, recording: true) }
            Thread.detachNewThread { [self] in relay(from: server, to: client, recording: false) }
        }
    }

    /// Copies one direction until it closes; the clients' side is kept, and cut into packets (a 4-byte size and a
    /// 4-byte type, both big-endian, then the payload).
    private func relay(from source: Int32, to destination: Int32, recording: Bool) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var pending: [UInt8] = []
        while true {
            let count = read(source, &buffer, buffer.count)
            guard count > 0 else { break }
            if recording {
                let now = ContinuousClock.now
                lock.withLock {
                    received += buffer[0..<count]
                    pending += buffer[0..<count]
                    while pending.count >= 8 {
                        let size = pending[0..<4].reduce(0) { $0 << 8 | Int($1) }
                        let type = pending[4..<8].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                        guard pending.count >= 8 + size else { break }
                        packets.append((type, now))
                        pending.removeFirst(8 + size)
                    }
                }
            }
            var sent = 0
            while sent < count {
                let written = buffer[sent..<count].withUnsafeBytes { write(destination, $0.baseAddress, $0.count) }
                guard written > 0 else { break }
                sent += written
            }
        }
        // Shut, not closed: the other direction's thread may still use both (a closed number could be reused by
        // another test's descriptor meanwhile). Each relay keeps its two sockets until the test process ends.
        shutdown(destination, Int32(SHUT_WR))
    }
}

extension PrivateBrltty {
    /// The TCP port of its BrlAPI server (4101 plus the server number in `host`).
    public var apiPort: Int? {
        host.split(separator: ":").last.flatMap { Int($0) }.map { 4101 + $0 }
    }
}
