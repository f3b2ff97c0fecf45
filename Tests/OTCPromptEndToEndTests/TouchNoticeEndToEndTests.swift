import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// ssh's security-key notice (SSH_ASKPASS_PROMPT=none) as the built binary runs it: closed by the user's key at a
/// terminal, posted for a password agent without one. ssh's SIGTERM at a terminal is in
/// `NoAnswerByAccidentEndToEndTests`.
@Suite(.runsPrograms) struct TouchNoticeEndToEndTests {
    static let presence = "Confirm user presence for key ED25519-SK SHA256:abc"

    /// Esc or Ctrl-C closes the notice: ssh hears a cancel in the exit status and nothing on stdout.
    @Test(arguments: ["\u{1b}", "\u{03}"])
    func aClosingKeyEndsItAsACancel(key: String) async throws {
        let run = try await PromptRun(
            ["--askpass", Self.presence], environment: PromptRun.environment(["SSH_ASKPASS_PROMPT": "none"]),
            ready: "Touch your security key")
        await run.waitPastTheGrace()
        run.type(key)
        #expect(await run.exit(deadline: .seconds(10)) == .exited(130))
        #expect(run.process.standardOutput == "")
        #expect(run.terminalRestored)
        #expect(await run.logEntries().contains { $0.text.contains("closed") })
    }

    /// No terminal (a detached ssh-agent's askpass): the notice goes where otc-prompt's own agent reads it, and
    /// ssh's SIGTERM withdraws it.
    @Test func withNoTerminalItIsPostedForTheAgentAndWithdrawnOnSIGTERM() async throws {
        var template = Array("/tmp/otc-touch-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw POSIXError(.EIO) }
        let runtime = String(cString: made)
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let agent = StandInAgent(runtimeDirectory: runtime)
        let process = try PseudoTerminalProcess(
            executable: PromptRun.binary, arguments: ["--speech", "none", "--askpass", "--", Self.presence],
            environment: PromptRun.environment(["XDG_RUNTIME_DIR": runtime, "SSH_ASKPASS_PROMPT": "none"]),
            terminal: false)
        let notice = try #require(await agent.waitForQuestion(), "nothing posted: \(process.standardErrorText)")
        #expect(notice.path.hasPrefix(agent.otcPromptDirectory + "/"))
        #expect(notice.keys["X-OTC-Kind"] == "notice", "\(notice.text)")
        // What to do last (the ask file writes a line break as \n), as the agent says a message's last line first.
        #expect(notice.keys["Message"] == Self.presence + #"\n"# + "Touch your security key.")
        process.sendSignal(SIGTERM)
        #expect(await process.waitForExit(deadline: .seconds(10)) == .signaled(SIGTERM))
        #expect(process.standardOutput == "")
        #expect(await agent.waitUntilEmpty(), "left: \(agent.leftovers)")
    }
}
