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
        static let question = "as the super user"

        func agent(_ polkit: PrivatePolkit, log: String) async {
            // No job control: the agent stays in the shell's foreground process group, as a program's own agent is.
            await polkit.run(
                "set +m; '\(Askpass.binary)' --polkit-agent --process $$ --speech none --speech-log '\(log)' &")
        }

        @Test func aWrongPasswordIsSaidAndTheRightOneLetsPkexecRun() async throws {
            let polkit = try PrivatePolkit()
            let log = polkit.asker.home + "/speech.jsonl"
            await agent(polkit, log: log)
            #expect(await polkit.agentRegistered(), "screen: \(polkit.shell.visibleScreen)")
            await polkit.run(Self.pkexec)
            await polkit.shell.answer("wrong-password\r", after: Self.question, speechLog: log)
            await polkit.shell.answer(polkit.admin.password + "\r", after: "Wrong password, try 2.")
            #expect(await polkit.shell.waitForScreen("uid=0 status=0"), "\(polkit.diagnosis)")
            let spoken = SpokenLine.transcript(log)
            let opening = SpokenLine.read(log).first { $0.event == "prompt" }?.text ?? ""
            // The action's message first, then who asks, then whose password.
            #expect(opening.hasPrefix("Authentication is needed to run `/usr/bin/id' as the super user."), "\(spoken)")
            #expect(opening.contains("Asked by pkexec. Password of \(polkit.admin.name)."), "spoken: \(spoken)")
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
