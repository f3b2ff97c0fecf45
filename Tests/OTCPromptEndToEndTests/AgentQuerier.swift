import Foundation
import Glibc
import Testing

/// A querier of systemd's password-agent protocol, played by the test: a datagram socket bound in a request
/// directory, and an `ask.*` file that names it, written as systemd-ask-password writes one (to a temporary name,
/// then renamed).
final class AgentQuerier {
    let directory: String
    let name: String
    let socketPath: String
    private let socket: Int32

    var askPath: String { directory + "/" + name }

    /// - Parameter lines: the `[Ask]` keys after `Socket=` (PID=, Message=, NotAfter=…); `socket` overrides the
    ///   path the file names.
    init(
        in directory: String, name: String = "ask.\(UUID().uuidString.prefix(8))", lines: [String],
        socket: String? = nil
    ) throws {
        self.directory = directory
        self.name = name
        socketPath = directory + "/sck.\(UUID().uuidString.prefix(12))"
        self.socket = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in socketPath.utf8.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(self.socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        try #require(bound == 0, "bind \(socketPath): errno \(errno)")
        let text = (["[Ask]", "Socket=\(socket ?? socketPath)"] + lines).joined(separator: "\n") + "\n"
        try Self.write(text, to: askPath)
    }

    deinit {
        close(socket)
        unlink(socketPath)
        unlink(askPath)
    }

    /// Writes `text` to `path` as a querier does: a temporary name in the same directory, then a rename.
    /// The file is closed before the rename, as a querier closes it: a close that came later would be a write the
    /// agent sees again (Foundation's writers may close late).
    static func write(_ text: String, to path: String) throws {
        let temporary = path.replacingOccurrences(of: "/ask.", with: "/.tmp.")
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        try #require(descriptor >= 0, "open \(temporary): errno \(errno)")
        let bytes = Array(text.utf8)
        let written = Glibc.write(descriptor, bytes, bytes.count)
        close(descriptor)
        try #require(written == bytes.count, "write \(temporary): errno \(errno)")
        try #require(rename(temporary, path) == 0)
    }

    /// The datagram the agent sent, or nil when none came within `deadline`: looks without blocking, then suspends
    /// the task a few ms, so its thread runs other tests while the agent is asked.
    func answer(deadline: Duration = .seconds(20)) async -> String? {
        let clock = ContinuousClock()
        let end = clock.now + deadline
        while !hasAnswer {
            let left = clock.now.duration(to: end)
            if left <= .zero { return nil }
            try? await Task.sleep(for: min(left, .milliseconds(5)))
        }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(socket, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        return count < 0 ? nil : String(decoding: buffer[..<count], as: UTF8.self)
    }

    /// Whether a datagram is waiting now (the agent answered when it should not have).
    var hasAnswer: Bool {
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) == 1
    }

    /// CLOCK_MONOTONIC in µs, `seconds` from now: a request's NotAfter=.
    static func notAfter(seconds: Int) -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec + seconds) * 1_000_000 + UInt64(now.tv_nsec / 1000)
    }

    /// A fresh request directory, 0700, of the test's user.
    static func directory() -> String {
        // NSTemporaryDirectory() ends in "/": a socket path with "//" in it is refused by the agent.
        let path = (PromptRun.privateDirectory() + "/ask").replacingOccurrences(of: "//", with: "/")
        mkdir(path, 0o700)
        return path
    }
}
