import Foundation
import Glibc
import OTCPromptTestSupport

/// polkit as the machine runs it, in a private mount namespace (the fixture `namespace.sh`, which the benchmark runs
/// too): a system bus of its own on a tmpfs over /run/dbus (pkexec is setuid and ignores DBUS_SYSTEM_BUS_ADDRESS),
/// polkitd on it, an admin its own admin rule names alone, and optionally a private copy of polkit's PAM file.
/// The asker's interactive shell runs on the test's pty; when the test ends, the bus and polkitd are killed by their
/// PIDs. Nothing of the host is changed but the throwaway users, which `ThrowawayUser` removes.
final class PrivatePolkit {
    let scratch: ScratchDirectory
    let asker: ThrowawayUser
    let admin: ThrowawayUser
    /// polkitd's log: "Registered Authentication Agent for unix-process:PID:START" once an agent has registered.
    let polkitdLog: String
    /// The pty running `unshare -m` and, in the end, the asker's `sh -i`.
    let shell: ClientRun

    /// - Parameters:
    ///   - pamEcho: a line pam_echo says before the password, in a bind-mounted copy of polkit's PAM file.
    ///   - thenWait: seconds PAM then waits (pam_exec runs sleep) before it asks, as a fingerprint reader waits for a
    ///     finger: nothing is asked meanwhile.
    init(pamEcho: String? = nil, thenWait: Int? = nil) throws {
        scratch = try ScratchDirectory()
        asker = try ThrowawayUser(in: scratch)
        admin = try ThrowawayUser(in: scratch)
        polkitdLog = scratch.file("polkitd.log")
        // No speech server for the asker: the tests speak with --speech none.
        var arguments = [
            "/usr/bin/unshare", "-m", Self.fixture + "/namespace.sh", scratch.path, asker.name, admin.name,
            "unix:/nonexistent",
        ]
        if let pamEcho {
            let original = try String(contentsOfFile: "/usr/lib/pam.d/polkit-1", encoding: .utf8)
            let pam = try scratch.write(
                "polkit-1",
                original.replacingOccurrences(
                    of: "@include common-auth",
                    with: "auth optional pam_echo.so \(pamEcho)\n"
                        + (thenWait.map { "auth optional pam_exec.so quiet /usr/bin/sleep \($0)\n" } ?? "")
                        + "@include common-auth"))
            arguments.append(pam)
        }
        shell = try ClientRun(arguments, environment: ClientRun.environment())
    }

    /// The bus and polkitd, by the PIDs the script wrote: the pty's end kills the script before any trap of its
    /// could run. The corresponding C function is `kill`.
    deinit {
        for name in ["polkitd.pid", "dbus.pid"] {
            let text = (try? String(contentsOfFile: scratch.file(name), encoding: .utf8)) ?? ""
            if let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 1 { kill(pid, SIGTERM) }
        }
    }

    /// Waits until polkitd says an agent registered for a process.
    func agentRegistered(count: Int = 1) async -> Bool {
        await shell.process.wait(deadline: .seconds(20)) { _ in
            let log = (try? String(contentsOfFile: self.polkitdLog, encoding: .utf8)) ?? ""
            return log.components(separatedBy: "Registered Authentication Agent for unix-process:").count > count
        }
    }

    /// The screen and polkitd's log, for a failure's message: polkitd says which identity it offered, and why not.
    var diagnosis: String {
        let log = (try? String(contentsOfFile: polkitdLog, encoding: .utf8)) ?? ""
        return "screen: \(shell.visibleScreen)\npolkitd: \(log)"
    }

    /// Waits until the screen, as a person sees it, shows `text`: the agent's restore may write its terminal modes
    /// between the echoed keys of a command typed while it still held the terminal.
    func seen(_ text: String) async -> Bool {
        await shell.process.wait(deadline: .seconds(15)) { visibleText($0.screen).contains(text) }
    }

    /// Types a command line at the asker's shell.
    func run(_ command: String) async {
        await shell.typeKeys(command + "\r")
    }

    /// The snippet a user's ~/.bashrc sources to start the agent (packaging/polkit).
    static let snippet = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
            "packaging/polkit/otc-prompt-polkit-agent.sh"
        ).path

    /// The namespace's script and its bus's configuration, shared with the benchmark.
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("fixtures/private-polkit").path
}
