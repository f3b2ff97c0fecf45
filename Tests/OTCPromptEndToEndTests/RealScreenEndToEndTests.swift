import Foundation
import Glibc
import Testing

/// A tmux server of the test's own (its socket in a temporary TMUX_TMPDIR), used as a real terminal
/// emulator: what `capture-pane` returns is what a person would see.
final class PrivateTmux {
    let directory = NSTemporaryDirectory() + "/otc-e2e-tmux-\(UUID().uuidString)"
    let name = "otc-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    /// The tmux server's process, ended by its pid if `kill-server` does not end it.
    private var serverID: pid_t = 0

    init(columns: Int, rows: Int, command: String, environment: [String: String]) {
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let settings = environment.flatMap { ["-e", "\($0.key)=\($0.value)"] }
        run(
            ["-f", "/dev/null", "new-session", "-d", "-x", "\(columns)", "-y", "\(rows)"] + settings + [command])
        serverID = pid_t(run(["display-message", "-p", "#{pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    deinit {
        run(["kill-server"])
        let end = Date().addingTimeInterval(2)
        while serverID > 0, kill(serverID, 0) == 0, Date() < end { usleep(20_000) }
        if serverID > 0, kill(serverID, 0) == 0 { kill(serverID, SIGKILL) }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// One tmux command on our server, given 5 s, then killed. Spawned and reaped here (not with
    /// Foundation's Process, whose reaping stalled beside the daemon tmux forks); its output goes to
    /// a file, since the server that `new-session` forks keeps whatever it inherited open.
    @discardableResult
    func run(_ arguments: [String]) -> String {
        let outputPath = directory + "/output"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let words = ["/usr/bin/tmux", "-L", name] + arguments
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        let settings = ["TMUX_TMPDIR=\(directory)", "PATH=/usr/bin:/bin"]
        let envp: [UnsafeMutablePointer<CChar>?] = settings.map { strdup($0) } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, "/usr/bin/tmux", &actions, nil, argv, envp) == 0 else { return "" }
        let end = Date().addingTimeInterval(5)
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            if Date() > end {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                break
            }
            usleep(10_000)
        }
        return (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    }

    func keys(_ keys: String...) {
        run(["send-keys"] + keys)
        usleep(200_000)
    }

    func resize(columns: Int) {
        run(["resize-window", "-x", "\(columns)"])
        usleep(200_000)
    }

    /// The visible rows, without trailing blank rows.
    var screen: [String] {
        var rows = run(["capture-pane", "-p"]).components(separatedBy: "\n")
        while rows.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { rows.removeLast() }
        return rows
    }

    /// Waits (at most `deadline`) for `text` on the screen.
    func waitFor(_ text: String, deadline: TimeInterval = 10) -> Bool {
        let end = Date().addingTimeInterval(deadline)
        while Date() < end {
            if screen.joined(separator: "\n").contains(text) { return true }
            usleep(50_000)
        }
        return false
    }
}

/// On a real terminal emulator (tmux): after typing, Ctrl-L twice, three resizes,
/// Backspace and Ctrl-L, the label is on the screen once and the field shows exactly what it holds.
@Suite(.runsPrograms, .serialized)
struct RealScreenEndToEndTests {
    @Test(
        arguments: [
            (20, ["--style", "line"], "Verification code:", "12"),
            (20, ["--style", "boxes"], "Verification code:", "▕1▏▕2▏"),
            (20, ["--style", "line", "--mask"], "Verification code:", "**"),
            (
                80, ["--style", "line", String(repeating: "Type the code from your authenticator app ", count: 2)],
                "Type the code", "12"
            ),
        ] as [(Int, [String], String, String)])
    func aFieldThatWouldWrapStaysOneTrueCopy(columns: Int, options: [String], label: String, field: String) async throws
    {
        var environment = PromptRun.environment()
        environment.removeValue(forKey: "PATH")
        let quoted = ([PromptRun.binary, "--speech", "none"] + options).map { "'\($0)'" }.joined(separator: " ")
        let tmux = PrivateTmux(columns: columns, rows: 12, command: quoted, environment: environment)
        #expect(tmux.waitFor(label))
        tmux.keys("1", "2", "9", "C-l", "C-l")
        for width in [columns - 1, columns + 4, columns] { tmux.resize(columns: width) }
        tmux.keys("BSpace", "C-l")
        let screen = tmux.screen
        let shown = screen.joined(separator: "\n").components(separatedBy: label).count - 1
        let expected = options.last!.hasPrefix("Type") ? 2 : 1
        #expect(shown == expected, "screen:\n\(screen.joined(separator: "\n"))")
        #expect(
            screen.last?.trimmingCharacters(in: .whitespaces).hasPrefix(field) == true,
            "screen:\n\(screen.joined(separator: "\n"))")
        #expect(!screen.joined().contains("9"), "the deleted 9 is still shown:\n\(screen.joined(separator: "\n"))")
    }
}
