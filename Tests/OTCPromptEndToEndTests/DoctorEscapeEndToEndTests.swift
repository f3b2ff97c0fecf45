import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// `--doctor` in a pane of a real tmux server of the test's own (its own socket, no config file), with a client
/// attached on a pty of this machine: it says the Esc wait that applies and why, and, while tmux's escape-time is
/// 100 ms or more (500 ms by default before tmux 3.5), that tmux holds every Esc that long.
@Suite(.runsPrograms, .serialized)
struct DoctorEscapeEndToEndTests {
    @Test(arguments: [(escapeTime: 500, warned: true), (10, false)])
    func inTmuxTheDoctorSaysTheEscWaitAndTmuxsOwn(escapeTime: Int, warned: Bool) async throws {
        let directory = PromptRun.privateDirectory()
        let socket = directory + "/tmux.sock"
        let report = directory + "/doctor"
        let environment = PromptRun.environment(["TERM": "xterm-256color"])
        let tmux = "/usr/bin/tmux -S \(socket) -f /dev/null"
        // The pane waits for its client, so that the doctor finds the person through it; for 30 s at most, so that a
        // run stopped before its clean-up leaves no shell polling a server that is gone.
        let pane =
            "n=0; until \(tmux) list-clients | grep -q .; do n=$((n+1)); [ $n -lt 600 ] || exit 1; sleep 0.05; done; "
            + "\(PromptRun.binary) --doctor --speech none > \(report).part; mv \(report).part \(report); sleep 60"
        // Spawned with a clean signal mask, as a shell would: tmux's event loop needs its signals.
        func tmuxCommand(_ arguments: [String]) async throws -> (
            status: OTCPromptTestSupport.ExitStatus?, error: String
        ) {
            let run = try PseudoTerminalProcess(
                executable: "/usr/bin/tmux", arguments: ["-S", socket, "-f", "/dev/null"] + arguments,
                environment: environment, terminal: false)
            return (await run.waitForExit(deadline: .seconds(20)), run.standardErrorText)
        }
        let started = try await tmuxCommand(
            ["new-session", "-d", "-x", "100", "-y", "30", "/bin/sh", "-c", pane])
        #expect(started.status == .exited(0), "\(started.error)")
        defer {
            _ = try? PseudoTerminalProcess(
                executable: "/usr/bin/tmux", arguments: ["-S", socket, "kill-server"], environment: environment,
                terminal: false
            ).waitForExit(deadline: .seconds(10))
        }
        let set = try await tmuxCommand(["set-option", "-s", "escape-time", String(escapeTime)])
        #expect(set.status == .exited(0), "\(set.error)")
        let client = try PseudoTerminalProcess(
            executable: "/usr/bin/tmux", arguments: ["-S", socket, "attach"], environment: environment, columns: 100,
            rows: 30)
        defer { client.sendSignal(SIGKILL) }
        let written = await client.wait(deadline: .seconds(20)) { _ in access(report, F_OK) == 0 }
        #expect(written, "screen: \(client.screen)")
        let text = (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""
        #expect(text.contains("is a tmux pane and its one client is on /dev/pts/"), "\(text)")
        #expect(
            text.contains("Esc: a lone Esc ends the prompt after 25 ms, because you are at this machine"), "\(text)")
        #expect(
            text.contains("tmux delays every Esc by its escape-time, \(escapeTime) ms, before the prompt sees it")
                == warned, "\(text)")
    }
}
