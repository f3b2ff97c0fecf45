import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

extension RealClientTests.SSHLogin {
    /// ssh's new-host question ("Are you sure you want to continue connecting (yes/no/[fingerprint])?").
    static let newHostQuestion = "continue connecting"

    /// The server's key was written to known_hosts (accepted) or not (refused).
    func hostKeyKnown() -> Bool {
        let text = (try? String(contentsOfFile: knownHosts, encoding: .utf8)) ?? ""
        return text.contains(server.knownHostsLine.split(separator: " ")[2])
    }

    @Test func aNewHostsKeyAcceptedWithYesAndEnter() async throws {
        let run = try ssh("password", newHost: true)
        await run.answer("yes\r", after: Self.newHostQuestion)
        await run.answer(user.password + "\r", after: "'s password")
        expectLoggedIn(run, secrets: [user.password])
        #expect(hostKeyKnown())
    }

    @Test func aNewHostsKeyRefusedWithEscape() async throws {
        let run = try ssh("password", newHost: true)
        await run.answer("\u{1b}", after: Self.newHostQuestion)
        #expect(await run.exit() == .exited(255), "screen: \(run.visibleScreen)")
        #expect(run.visibleScreen.contains("Host key verification failed."))
        #expect(run.terminalRestored)
        #expect(!hostKeyKnown())
        #expect(!SpokenLine.read(speechLog).contains { $0.event == "prompt" && $0.text.contains("password") })
    }

    /// "yes⏎" typed in full answers the question, and nothing of it reaches the password field.
    @Test
    func aNewHostsKeyAcceptedByTypingYes() async throws {
        let run = try ssh("password", newHost: true)
        await run.answer("yes\r", after: Self.newHostQuestion)
        await run.answer(user.password + "\r", after: "'s password")
        expectLoggedIn(run, secrets: [user.password])
        #expect(hostKeyKnown())
        #expect(!run.visibleScreen.contains("Permission denied"), "a leftover was sent as a password")
    }

    /// ssh's question names its answers in English whatever the locale: "yes", typed as it asks, is an answer
    /// beside the language's own "ja", and the question is still said in German.
    @Test(arguments: ["yes", "ja"])
    func aNewHostsKeyAcceptedWithTheWordTheQuestionNamesInAGermanLocale(word: String) async throws {
        let run = try ssh("password", newHost: true, locale: "de_DE.UTF-8")
        #expect(await run.waitForQuestion(Self.newHostQuestion))
        #expect(
            SpokenLine.transcript(speechLog).contains("ja oder nein"), "\(SpokenLine.transcript(speechLog))")
        await run.answer(word + "\r", after: Self.newHostQuestion)
        await run.answer(user.password + "\r", after: "'s password")
        expectLoggedIn(run, secrets: [user.password])
        #expect(hostKeyKnown())
    }

    /// Keys that arrive with the answer, in the same burst, are not left for the password
    /// field that ssh asks next.
    @Test func keysSentWithTheAnswerNeverReachThePasswordField() async throws {
        let run = try ssh("password", newHost: true)
        #expect(await run.waitForQuestion(Self.newHostQuestion))
        await pause(ClientRun.reactionTime)
        run.process.type("yes\rjunk\r")
        await run.answer(user.password + "\r", after: "'s password")
        expectLoggedIn(run, secrets: [user.password, "junk"])
        #expect(!run.visibleScreen.contains("Permission denied"), "a leftover was sent as a password")
    }

    /// The fingerprint pasted (as a terminal pastes: bracketed when the prompt asked for it)
    /// is an answer, and ssh compares it with the key.
    @Test
    func aNewHostsKeyAcceptedByPastingItsFingerprint() async throws {
        let run = try ssh("password", newHost: true)
        #expect(await run.waitForQuestion(Self.newHostQuestion))
        await pause(ClientRun.reactionTime)
        let bracketed = run.process.screen.contains("\u{1b}[?2004h")
        let paste = bracketed ? "\u{1b}[200~\(server.hostFingerprint)\u{1b}[201~" : server.hostFingerprint
        run.process.type(paste)
        await run.process.waitPastThePasteJoin()  // Enter is a read of its own, not the paste's end
        await run.typeKeys("\r")
        await run.answer(user.password + "\r", after: "'s password")
        expectLoggedIn(run, secrets: [user.password])
        #expect(hostKeyKnown())
    }

    /// The host key's fingerprint, above the question, is on the screen and spoken.
    @Test
    func theNewHostsFingerprintIsShownAndSpoken() async throws {
        let run = try ssh("password", newHost: true)
        #expect(await run.waitForQuestion(Self.newHostQuestion))
        await pause(ClientRun.reactionTime)
        #expect(run.visibleScreen.contains(server.hostFingerprint), "screen: \(run.visibleScreen)")
        #expect(run.visibleScreen.contains("authenticity of host"), "screen: \(run.visibleScreen)")
        await run.typeKeys("no\r")
        #expect(await run.exit() == .exited(255))
        let spoken = SpokenLine.transcript(speechLog).lowercased()
        #expect(spoken.contains("fingerprint") && spoken.contains("authenticity"), "spoken: \(spoken)")
    }
}
