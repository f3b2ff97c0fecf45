import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// Esc, then a command, in a pane of a real tmux server of the test's own (its own socket, no config file), with
/// tmux's escape-time at 500 ms (its default before 3.5): tmux joins the Esc and the first key typed within it into
/// one Alt key. The prompt cancels, and the shell that runs after it reads the whole command and runs it. The keys
/// come through a client attached on a pty of this machine, typed as a person types them (tmux's own merge), or
/// through `send-keys`, which writes them into the pane at once.
@Suite(.runsPrograms, .serialized)
struct EscapeInTmuxEndToEndTests {
    enum Keys: String, CaseIterable, CustomTestStringConvertible {
        case typedAtAClient, sentByTmux
        var testDescription: String { rawValue }
    }

    @Test(arguments: Keys.allCases)
    func escThenACommandRunsTheCommand(keys: Keys) async throws {
        let directory = PromptRun.privateDirectory()
        let socket = directory + "/tmux.sock"
        let environment = PromptRun.environment(["TERM": "xterm-256color"])
        // After the prompt, the shell reads the next line and runs it; the pane then stays for capture-pane, 60 s at
        // most, so that a run stopped before its clean-up leaves nothing behind for long.
        let pane =
            "\(PromptRun.binary) --speech none; echo \"status=$?\"; "
            + "IFS= read -r line; printf 'read=[%s]\\n' \"$line\"; eval \"$line\"; sleep 60"
        // Spawned with a clean signal mask, as a shell would: tmux's event loop needs its signals.
        func tmux(_ arguments: [String]) async throws -> (status: OTCPromptTestSupport.ExitStatus?, output: String) {
            let run = try PseudoTerminalProcess(
                executable: "/usr/bin/tmux", arguments: ["-S", socket, "-f", "/dev/null"] + arguments,
                environment: environment, terminal: false)
            let status = await run.waitForExit(deadline: .seconds(20))
            return (status, run.standardOutput + run.standardErrorText)
        }
        let started = try await tmux(["new-session", "-d", "-s", "esc", "-x", "100", "-y", "30", "/bin/sh", "-c", pane])
        #expect(started.status == .exited(0), "\(started.output)")
        defer {
            _ = try? PseudoTerminalProcess(
                executable: "/usr/bin/tmux", arguments: ["-S", socket, "kill-server"], environment: environment,
                terminal: false
            ).waitForExit(deadline: .seconds(10))
        }
        let set = try await tmux(["set-option", "-s", "escape-time", "500"])
        #expect(set.status == .exited(0), "\(set.output)")
        func paneShows(_ text: String, deadline: Duration) async throws -> (Bool, String) {
            let end = ContinuousClock.now.advanced(by: deadline)
            var shown = ""
            while ContinuousClock.now < end {
                shown = try await tmux(["capture-pane", "-p", "-t", "esc"]).output
                if shown.contains(text) { return (true, shown) }
                usleep(50_000)
            }
            return (false, shown)
        }
        let client =
            keys == .typedAtAClient
            ? try PseudoTerminalProcess(
                executable: "/usr/bin/tmux", arguments: ["-S", socket, "attach", "-t", "esc"],
                environment: environment, columns: 100, rows: 30) : nil
        defer { client?.sendSignal(SIGKILL) }
        let (asked, screen) = try await paneShows("Verification code", deadline: .seconds(30))
        #expect(asked, "pane: \(screen)")
        if let client {
            // As a person types: Esc, then the command a tenth of a second later, within tmux's escape-time.
            client.type("\u{1B}")
            usleep(100_000)
            client.type("echo hi\r")
        } else {
            let sent = try await tmux(["send-keys", "-t", "esc", "Escape", "echo hi", "Enter"])
            #expect(sent.status == .exited(0), "\(sent.output)")
        }
        let (ran, after) = try await paneShows("read=[", deadline: .seconds(20))
        #expect(ran, "pane: \(after)")
        let (_, final) = try await paneShows("\nhi\n", deadline: .seconds(5))
        #expect(final.contains("status=130"), "pane: \(final)")
        #expect(final.contains("read=[echo hi]"), "pane: \(final)")
        #expect(final.contains("\nhi\n"), "the shell ran the command: \(final)")
        #expect(!final.contains("not allowed"), "pane: \(final)")
    }
}
