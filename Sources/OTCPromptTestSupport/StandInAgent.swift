import Foundation
import Glibc
import OTCPromptSystem

/// A password agent of the test's own, standing in for `otc-prompt --agent`: it finds the ask files posted in a
/// runtime directory, as any agent would, and answers each on its socket with what the test says. It reads the
/// files as text and knows nothing of otc-prompt's parser, so the posting side is tested against the protocol.
public final class StandInAgent: Sendable {
    /// systemd's per-user directory (passwords) and otc-prompt's own (questions, notices).
    public let systemdDirectory: String
    public let otcPromptDirectory: String

    /// - Parameter runtimeDirectory: the callers' XDG_RUNTIME_DIR, written plainly here as they write it.
    public init(runtimeDirectory: String) {
        let plain = "/" + runtimeDirectory.split(separator: "/").joined(separator: "/")
        systemdDirectory = plain + "/systemd/ask-password"
        otcPromptDirectory = plain + "/otc-prompt/ask"
    }

    /// One posted question: the file's path and its keys.
    public struct Posted: Sendable {
        public let path: String
        public let text: String
        /// The `[Ask]` keys; a repeated key keeps its last value.
        public let keys: [String: String]
        public var socket: String { keys["Socket"] ?? "" }
    }

    /// The `ask.*` files in both directories now.
    public var posted: [Posted] {
        [systemdDirectory, otcPromptDirectory].flatMap { directory in
            ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasPrefix("ask.") }
                .compactMap { name -> Posted? in
                    let path = directory + "/" + name
                    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
                    var keys: [String: String] = [:]
                    for line in text.split(separator: "\n") {
                        guard let equals = line.firstIndex(of: "=") else { continue }
                        keys[String(line[..<equals])] = String(line[line.index(after: equals)...])
                    }
                    return Posted(path: path, text: text, keys: keys)
                }
        }
    }

    /// Every entry of both directories (sockets, temporary files), to see that nothing is left behind.
    public var leftovers: [String] {
        [systemdDirectory, otcPromptDirectory].flatMap {
            (try? FileManager.default.contentsOfDirectory(atPath: $0)) ?? []
        }
    }

    /// Waits for a question to be posted in `directory` (either when nil). Looked for every 20 ms on a thread of
    /// its own, while the test's task waits suspended: a question may live only a second (a caller's limit), less
    /// than the test runner's threads can all be busy, and a look made on them could come after it was withdrawn.
    public func waitForQuestion(in directory: String? = nil, deadline: Duration = .seconds(20)) async -> Posted? {
        await withCheckedContinuation { continuation in
            Thread {
                let clock = ContinuousClock()
                let end = clock.now + deadline
                while true {
                    if let found = self.posted.first(where: { directory == nil || $0.path.hasPrefix(directory! + "/") })
                    {
                        return continuation.resume(returning: found)
                    }
                    if clock.now >= end { return continuation.resume(returning: nil) }
                    usleep(20_000)
                }
            }.start()
        }
    }

    /// Waits until nothing is left in either directory (`leftovers`), the task suspended between looks; false at
    /// the deadline.
    public func waitUntilEmpty(deadline: Duration = .seconds(10)) async -> Bool {
        await Self.look(deadline: deadline) { leftovers.isEmpty }
    }

    /// Looks until `condition` holds, sleeping the task (not the thread) between looks; false at the deadline.
    private static func look(deadline: Duration, until condition: () -> Bool) async -> Bool {
        let clock = ContinuousClock()
        let end = clock.now + deadline
        while true {
            if condition() { return true }
            let left = clock.now.duration(to: end)
            if left <= .zero { return false }
            try? await Task.sleep(for: min(left, .milliseconds(20)))
        }
    }

    /// Sends `answer` ("+secret", "+yes", "-") as one datagram to the question's socket, as an agent does.
    @discardableResult
    public func answer(_ question: Posted, with answer: String) -> Bool {
        guard let address = UnixSocketAddress(path: question.socket) else { return false }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(fd) }
        let bytes = Array(answer.utf8)
        return address.withSocketAddress { sendto(fd, bytes, bytes.count, 0, $0, $1) == bytes.count }
    }
}
