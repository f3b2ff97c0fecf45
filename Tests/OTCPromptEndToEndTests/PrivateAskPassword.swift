import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// systemd's `/run/systemd/ask-password`, private to one test: the agent runs in a mount namespace of its own with
/// a fresh tmpfs there (as packaging/ask_namespace.py makes one for the package check and the benchmark), and the
/// real systemd-ask-password (252 here, which honours no other directory) runs in the same namespace. No other
/// agent sees the test's requests, no other program's request reaches its agent, tests run side by side, and the
/// machine's directory is never written. Root only.
enum PrivateAskPassword {
    static let directory = "/run/systemd/ask-password"

    /// Whether this machine can: root, systemd-ask-password, unshare and nsenter, mount namespaces allowed, and the
    /// directory there to mount on (systemd makes it at boot; a test never makes it on the machine).
    static var isAvailable: Bool {
        var status = stat()
        return getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/bin/systemd-ask-password")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/nsenter") && stat(directory, &status) == 0
            && Namespaces.available(["-m"])
    }

    /// Runs what follows it (the binary and its arguments) in a new mount namespace with a fresh tmpfs on the
    /// directory; the process keeps its PID, so `Querier` finds the namespace by it.
    static let launcher = [
        "/usr/bin/unshare", "--mount", "--propagation", "private", "/bin/sh", "-c",
        "mount -t tmpfs -o mode=0755,size=1m otc-e2e \(directory) && exec \"$@\"", "sh",
    ]

    /// `otc-prompt --agent` watching the private directory, once it shows `ready`.
    static func agent(
        _ extra: [String] = [], environment: [String: String] = PromptRun.environment(), speech: String = "none",
        ready: String? = "Waiting for password requests"
    ) async throws -> PromptRun {
        try await PromptRun(
            ["--agent", "--agent-directory", directory] + extra, environment: environment, speech: speech,
            ready: ready, launcher: launcher)
    }

    /// One `systemd-ask-password --no-tty` in the agent's namespace, its stdout (what the agent sent) read at its end.
    final class Querier {
        let process: SpawnedProgram

        init(_ message: String, options: [String] = [], namespaceOf agent: PromptRun) throws {
            process = try SpawnedProgram(
                "/usr/bin/nsenter",
                ["--target", "\(agent.process.processID)", "--mount", "/bin/systemd-ask-password", "--no-tty"]
                    + options + [message],
                environment: ProcessInfo.processInfo.environment)
        }

        /// What it printed once it ended, and how it ended; nil when it did not end within `deadline`.
        /// The task is suspended between looks, so its thread runs other tests while the querier waits.
        func result(deadline: Duration = .seconds(20)) async -> (output: String, status: Int32)? {
            guard let status = await process.waitForExit(deadline: deadline) else { return nil }
            process.waitForOutput()
            return (process.output, status)
        }

        /// SIGTERM, so that systemd-ask-password removes its request, as it does when a service stops.
        deinit {
            process.terminate()
            _ = process.waitForExit(deadline: .seconds(5))
        }
    }

    /// The ask files in the agent's private directory now, with their text (read in its namespace).
    static func requests(of agent: PromptRun) -> [String: String] {
        let root = "/proc/\(agent.process.processID)/root" + directory
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        var found: [String: String] = [:]
        for name in names where name.hasPrefix("ask.") {
            found[name] = try? String(contentsOfFile: root + "/" + name, encoding: .utf8)
        }
        return found
    }

    /// Answers the request whose message contains `message`, as another agent would: one datagram to its socket.
    static func answer(_ message: String, with answer: String, of agent: PromptRun) -> Bool {
        guard let text = requests(of: agent).values.first(where: { $0.contains("Message=" + message) }),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Socket=") })
        else { return false }
        let socketPath = "/proc/\(agent.process.processID)/root" + line.dropFirst("Socket=".count)
        let sender = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(sender) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = Array(socketPath.utf8)
        guard path.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path + [0]) }
        let bytes = Array(answer.utf8)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                sendto(sender, bytes, bytes.count, 0, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == bytes.count
            }
        }
    }
}
