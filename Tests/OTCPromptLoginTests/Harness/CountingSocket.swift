import Glibc
import OTCPromptTestSupport

/// A unix socket that only listens and counts who connects (`SilentSocketServer`): a stand-in
/// speech-dispatcher or PulseAudio to prove that nothing (not even a probe) reached it. Its file and
/// directory are made by the test, so their owner is the test's to set.
final class CountingSocket: @unchecked Sendable {
    private let server: SilentSocketServer
    var path: String { server.path }

    init(path: String, owner: uid_t, group: gid_t) throws {
        server = try SilentSocketServer(path: path)
        guard chown(path, owner, group) == 0, chmod(path, 0o600) == 0 else {
            let reason = String(cString: strerror(errno))
            server.stop()
            throw HarnessError("listen on \(path): \(reason)")
        }
    }

    var connections: Int { server.connectionCount }

    func stop() { server.stop() }
}
