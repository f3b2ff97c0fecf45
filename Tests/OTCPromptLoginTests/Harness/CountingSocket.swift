import Foundation
import Glibc

/// A unix socket that only listens and counts who connects: a stand-in speech-dispatcher to prove that
/// nothing (not even a probe) reached it. Its file and directory are made by the test, so their owner is
/// the test's to set.
final class CountingSocket: @unchecked Sendable {
    let path: String
    private let listener: Int32
    private let lock = NSLock()
    private var accepted: [Int32] = []

    init(path: String, owner: uid_t, group: gid_t) throws {
        self.path = path
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0, listen(listener, 16) == 0, chown(path, owner, group) == 0, chmod(path, 0o600) == 0 else {
            Glibc.close(listener)
            throw HarnessError("listen on \(path): \(String(cString: strerror(errno)))")
        }
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    var connections: Int { lock.withLock { accepted.count } }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        Glibc.close(listener)
        lock.withLock {
            for connection in accepted { Glibc.close(connection) }
        }
        unlink(path)
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                return
            }
            lock.withLock { accepted.append(connection) }
        }
    }
}
