import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// Esc always cancels a question, as its choices announce ("…; Enter new passphrase, or Escape"), never answers
/// no: with the real gpg-agent, whose pinentry replies "Operation cancelled", and with the password agent, which
/// sends `-`.
extension PinentryEndToEndTests {
    /// gpg-agent's weak-passphrase warning names OK and Cancel (`SETOK`, `SETCANCEL`). Its replies to gpg-agent are
    /// kept by a wrapper around the pinentry, as gpg-agent reads them.
    @Test(.timeLimit(.minutes(5))) func escOnGpgAgentsLabelledQuestionIsOperationCancelled() async throws {
        let home = try await GnuPGHome()
        let replies = home.path + "/replies"
        try writeExecutable(
            """
            #!/bin/sh
            "\(PromptRun.binary)" --pinentry --speech text --speech-log "\(home.speechLog)" | tee -a "\(replies)"

            """, to: home.path + "/pinentry")
        let gpg = try await weakPassphraseWarning(home)
        gpg.type("\u{1B}")
        // Cancelled, gpg-agent asks for a new passphrase again, as its cancel label says.
        #expect(waitForScreen(gpg, "Please enter the new passphrase", count: 2), "screen: \(gpg.screen)")
        let said = (try? String(contentsOfFile: replies, encoding: .utf8)) ?? ""
        #expect(said.contains("ERR 83886179 Operation cancelled <Pinentry>"), "\(said)")
        #expect(!said.contains("Not confirmed"), "\(said)")
        // Esc on the field gives up: gpg says so, then asks for the subkey's passphrase, where Esc gives up too.
        await gpg.waitPastTheGrace()
        gpg.type("\u{1B}")
        #expect(waitForScreen(gpg, "error changing passphrase: Operation cancelled"), "screen: \(gpg.screen)")
        #expect(waitForScreen(gpg, "Please enter the passphrase to unlock", count: 2), "screen: \(gpg.screen)")
        await gpg.waitPastTheGrace()
        gpg.type("\u{1B}")
        #expect(await gpg.waitForExit(deadline: .seconds(30)) != nil, "screen: \(gpg.screen.suffix(1500))")
        #expect(home.spoken.contains("\"event\": \"cancel\""), "\(home.spoken)")
    }
}

@Suite(.runsPrograms) struct EscapeCancelsAgentQuestionsEndToEndTests {
    let directory = AgentQuerier.directory()

    /// otc-prompt's own question, as an askpass or a pinentry with no terminal posts it, with the caller's labels
    /// and without: Esc sends `-`, the cancel its caller maps back (a pinentry's "Operation cancelled").
    @Test(arguments: [
        ["X-OTC-OK=Sign", "X-OTC-NotOK=Skip", "X-OTC-Cancel=Stop"], ["X-OTC-OK=Delete", "X-OTC-Cancel=Keep"], [],
    ])
    func escOnTheAgentsQuestionSendsCancel(labels: [String]) async throws {
        let run = try await PromptRun(
            ["--agent", "--agent-directory", directory], ready: "Waiting for password requests")
        let querier = try AgentQuerier(
            in: directory, lines: ["PID=\(getpid())", "X-OTC-Kind=question", "Message=Allow the key?"] + labels)
        #expect(await run.process.waitForScreen(containing: "Allow the key?", deadline: .seconds(20)))
        await run.waitPastTheGrace()
        run.type([0x1B])
        #expect(await querier.answer() == "-")
        run.process.sendSignal(SIGTERM)
        #expect(await run.exit() == .signaled(SIGTERM))
    }
}
