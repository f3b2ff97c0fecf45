import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

extension RealClientTests {
    /// `pkexec` run by a throwaway user at an interactive shell that started `otc-prompt --polkit-agent --process $$`
    /// in the background, as `pkttyagent --process` is started, against a private polkitd (`PrivatePolkit`).
    @Suite(
        .serialized,
        .enabled(
            if: Namespaces.available(["-m"]) && FileManager.default.fileExists(atPath: "/usr/bin/pkexec"),
            "needs a mount namespace (unshare -m) and polkit's pkexec (make deps)")
    )
    struct PolkitAgent {
        /// pkexec's output and status on one line, told apart from the command line's echo.
        static let pkexec = "uid=$(pkexec --disable-internal-agent /usr/bin/id -u); echo \"uid=$uid status=$?\""
        /// The question first, short: pkexec's message is said on request.
        static let question = "To run id as root: password of"

        func agent(_ polkit: PrivatePolkit, log: String) async {
            // Job control on, as in an interactive shell: the agent is a background job of its own, and joins the
            // foreground program's group while it asks.
            await polkit.run(
                "set -m; '\(Askpass.binary)' --polkit-agent --process $$ --speech none --speech-log '\(log)' &")
        }

        @Test func aWrongPasswordIsSaidAndTheRightOneLetsPkexecRun() async throws {
            let polkit = try PrivatePolkit()
            let log = polkit.asker.home + "/speech.jsonl"
            await agent(polkit, log: log)
            #expect(await polkit.agentRegistered(), "screen: \(polkit.shell.visibleScreen)")
            await polkit.run(Self.pkexec)
            #expect(await polkit.shell.waitForQuestion(Self.question, speechLog: log), "\(polkit.diagnosis)")
            // pkexec's own message and who asks are on the screen, and said on request.
            #expect(await polkit.seen("Authentication is needed to run `/usr/bin/id' as the super user"))
            #expect(
                await polkit.shell.readBack("Asked by pkexec.", untilSaid: 1, speechLog: log), "\(polkit.diagnosis)")
            await polkit.shell.typeKeys("wrong-password\r")
            await polkit.shell.answer(polkit.admin.password + "\r", after: "Wrong password, try 2.")
            #expect(await polkit.shell.waitForScreen("uid=0 status=0"), "\(polkit.diagnosis)")
            let spoken = SpokenLine.transcript(log)
            let openings = SpokenLine.read(log).filter { $0.event == "prompt" }.map(\.text)
            // The question first, then whose password; pkexec's message and who asks only when asked for.
            #expect(
                openings.first?.hasPrefix("To run id as root: password of \(polkit.admin.name).") == true, "\(spoken)")
            #expect(openings.first?.contains("Authentication is needed") == false, "spoken: \(spoken)")
            #expect(
                openings.dropFirst().first?.contains(
                    "Authentication is needed to run `/usr/bin/id' as the super user. Asked by pkexec.") == true,
                "spoken: \(spoken)")
            #expect(spoken.contains("Wrong password, try 2."), "spoken: \(spoken)")
            #expect(!spoken.contains(polkit.admin.password) && !spoken.contains("wrong-password"), "\(spoken)")
            let screen = polkit.shell.visibleScreen
            #expect(!screen.contains(polkit.admin.password) && !screen.contains("wrong-password"), "screen: \(screen)")
        }

        @Test func escCancelsAtOnceAndTheAgentAndTheShellGoOn() async throws {
            let polkit = try PrivatePolkit()
            let log = polkit.asker.home + "/speech.jsonl"
            await agent(polkit, log: log)
            #expect(await polkit.agentRegistered(), "screen: \(polkit.shell.visibleScreen)")
            await polkit.run(Self.pkexec)
            await polkit.shell.answer("abc\u{1B}", after: Self.question, speechLog: log)
            #expect(await polkit.shell.waitForScreen("Request dismissed"), "screen: \(polkit.shell.visibleScreen)")
            #expect(await polkit.shell.waitForScreen("uid= status=126"), "screen: \(polkit.shell.visibleScreen)")
            // Typed while "cancelled" may still be said: the shell reads it whole, and it is echoed.
            await polkit.run("echo typed-after-esc")
            #expect(await polkit.seen("$ echo typed-after-esc"), "\(polkit.shell.visibleScreen)")
            #expect(await polkit.seen("echo typed-after-esc\r\ntyped-after-esc"), "\(polkit.shell.visibleScreen)")
            // The agent is still registered and asks the next request.
            await polkit.run(Self.pkexec)
            await polkit.shell.answer(polkit.admin.password + "\r", after: Self.question, call: 2, speechLog: log)
            #expect(await polkit.shell.waitForScreen("uid=0 status=0"), "\(polkit.diagnosis)")
        }

        @Test func aPamEchoLineIsHeardAndShownBeforeTheQuestion() async throws {
            let line = "Touch nothing: pam_echo speaks."
            let polkit = try PrivatePolkit(pamEcho: line)
            let log = polkit.asker.home + "/speech.jsonl"
            await agent(polkit, log: log)
            #expect(await polkit.agentRegistered(), "screen: \(polkit.shell.visibleScreen)")
            await polkit.run(Self.pkexec)
            await polkit.shell.answer(polkit.admin.password + "\r", after: Self.question, speechLog: log)
            #expect(await polkit.shell.waitForScreen("uid=0 status=0"), "\(polkit.diagnosis)")
            let opening = SpokenLine.read(log).first { $0.event == "prompt" }?.text ?? ""
            #expect(opening.hasPrefix(line), "spoken: \(SpokenLine.transcript(log))")
            #expect(polkit.shell.visibleScreen.contains(line), "screen: \(polkit.shell.visibleScreen)")
        }

        @Test func aPamLineIsSaidAtOnceWhileNothingIsAskedAndEscCancelsTheWait() async throws {
            // pam_echo's line, then PAM waits as for a finger on a reader, then asks.
            let line = "Place your finger on the reader."
            let polkit = try PrivatePolkit(pamEcho: line, thenWait: 4)
            let log = polkit.asker.home + "/speech.jsonl"
            await agent(polkit, log: log)
            #expect(await polkit.agentRegistered(), "screen: \(polkit.shell.visibleScreen)")
            func heard(_ count: Int) async -> Bool {
                await polkit.shell.process.wait(deadline: .seconds(15)) { _ in
                    SpokenLine.read(log).filter { $0.text.contains(line) }.count >= count
                }
            }
            func questions() -> Int {
                SpokenLine.read(log).filter { $0.event == "prompt" && $0.text.contains(Self.question) }.count
            }
            await polkit.run(Self.pkexec)
            // Heard and shown while PAM waits, before any field is open.
            #expect(await heard(1), "\(polkit.diagnosis)")
            #expect(questions() == 0, "spoken: \(SpokenLine.transcript(log))")
            #expect(await polkit.seen(line), "screen: \(polkit.shell.visibleScreen)")
            // The terminal is watched meanwhile: Esc cancels.
            await polkit.shell.pauseReading(ClientRun.reactionTime)
            await polkit.shell.typeKeys("\u{1B}")
            #expect(await polkit.shell.waitForScreen("uid= status=126"), "screen: \(polkit.shell.visibleScreen)")
            #expect(questions() == 0, "spoken: \(SpokenLine.transcript(log))")
            // Left to wait, the line is said, then the question, which does not say it again.
            await polkit.run(Self.pkexec)
            #expect(await heard(2), "\(polkit.diagnosis)")
            #expect(questions() == 0, "spoken: \(SpokenLine.transcript(log))")
            await polkit.shell.answer(polkit.admin.password + "\r", after: Self.question, speechLog: log)
            #expect(await polkit.shell.waitForScreen("uid=0 status=0"), "\(polkit.diagnosis)")
            let opening = SpokenLine.read(log).first { $0.event == "prompt" && $0.text.contains(Self.question) }
            #expect(opening?.text.contains(line) == false, "spoken: \(SpokenLine.transcript(log))")
        }

        @Test func aRequestFromABackgroundJobIsCancelledWithoutReadingTheTerminal() async throws {
            let polkit = try PrivatePolkit()
            let log = polkit.asker.home + "/speech.jsonl"
            await agent(polkit, log: log)
            #expect(await polkit.agentRegistered(), "screen: \(polkit.shell.visibleScreen)")
            try await backgroundJobIsRefusedAndTheNextLineReachesTheShell(polkit, log: log)
            // The foreground's request is still asked, with job control on.
            await polkit.run(Self.pkexec)
            await polkit.shell.answer(polkit.admin.password + "\r", after: Self.question, speechLog: log)
            #expect(await polkit.shell.waitForScreen("uid=0 status=0"), "\(polkit.diagnosis)")
        }

        /// `pkexec … &` (its subject the shell, at its prompt): refused, never asked, and the command line typed at
        /// once, while the request is being decided, reaches the shell whole.
        func backgroundJobIsRefusedAndTheNextLineReachesTheShell(_ polkit: PrivatePolkit, log: String) async throws {
            // pkexec's own job: its subject is then the shell the agent serves.
            await polkit.run("pkexec --disable-internal-agent /usr/bin/id -u &")
            await polkit.run("echo whole-line-typed")
            // pkexec ends refused: "Error executing command as another user: Request dismissed".
            #expect(await polkit.seen("Request dismissed"), "\(polkit.diagnosis)")
            #expect(await polkit.seen("not in the terminal's foreground"), "screen: \(polkit.shell.visibleScreen)")
            #expect(await polkit.seen("echo whole-line-typed\r\nwhole-line-typed"), "\(polkit.shell.visibleScreen)")
            #expect(SpokenLine.read(log).filter { $0.event == "prompt" }.isEmpty, "\(SpokenLine.transcript(log))")
        }

        @Test func theShippedSnippetKeepsJobControlSoABackgroundJobIsRefused() async throws {
            let polkit = try PrivatePolkit()
            let log = polkit.asker.home + "/speech.jsonl"
            let snippet = try polkit.scratch.write(
                "polkit-agent.sh", String(contentsOfFile: PrivatePolkit.snippet, encoding: .utf8))
            // The agent the snippet starts reads its speech from the asker's configuration file.
            await polkit.run(
                "mkdir -p ~/.config/otc-prompt && printf 'speech = \"none\"\\nspeech-log = \"\(log)\"\\n' > ~/.config/otc-prompt/config"
            )
            await polkit.run("PATH='\((Askpass.binary as NSString).deletingLastPathComponent)':$PATH; . '\(snippet)'")
            #expect(await polkit.agentRegistered(), "\(polkit.diagnosis)")
            try await backgroundJobIsRefusedAndTheNextLineReachesTheShell(polkit, log: log)
            await polkit.run(Self.pkexec)
            await polkit.shell.answer(polkit.admin.password + "\r", after: Self.question, speechLog: log)
            #expect(await polkit.shell.waitForScreen("uid=0 status=0"), "\(polkit.diagnosis)")
        }

        @Test func theShippedSnippetDoesNotStartTheAgentWithoutJobControl() async throws {
            let polkit = try PrivatePolkit()
            let snippet = try polkit.scratch.write(
                "polkit-agent.sh", String(contentsOfFile: PrivatePolkit.snippet, encoding: .utf8))
            await polkit.run(
                "set +m; PATH='\((Askpass.binary as NSString).deletingLastPathComponent)':$PATH; . '\(snippet)'; echo \"pid=${OTC_PROMPT_POLKIT_AGENT_PID:-none}\""
            )
            #expect(await polkit.seen("job control is off"), "screen: \(polkit.shell.visibleScreen)")
            #expect(await polkit.seen("pid=none"), "screen: \(polkit.shell.visibleScreen)")
        }

        /// The anchor: polkit's own text agent in the same harness lets the same pkexec run.
        @Test func pkttyagentInTheSameHarnessLetsPkexecRun() async throws {
            let polkit = try PrivatePolkit()
            await polkit.run("set +m; pkttyagent --process $$ &")
            #expect(await polkit.agentRegistered(), "screen: \(polkit.shell.visibleScreen)")
            await polkit.run(Self.pkexec)
            #expect(await polkit.shell.waitForScreen("Password: "), "\(polkit.diagnosis)")
            await polkit.shell.answer(polkit.admin.password + "\r", after: "Password: ")
            #expect(await polkit.shell.waitForScreen("uid=0 status=0"), "\(polkit.diagnosis)")
        }
    }
}
