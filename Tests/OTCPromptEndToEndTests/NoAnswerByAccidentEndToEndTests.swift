import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// No answer by accident, nothing left behind, a notice that needs no answer.
@Suite(.runsPrograms, .serialized)
struct NoAnswerByAccidentEndToEndTests {
    static let agentQuestion =
        "Allow use of key /root/.ssh/id_ed25519?\nKey fingerprint SHA256:3uW0xQk7J2r0vC9cVJgk1m1v4c4qG7mH1Xb9Yz0aBcD."

    private func question(_ environment: [String: String] = ["SSH_ASKPASS_PROMPT": "confirm"]) throws -> PromptRun {
        try PromptRun(
            ["--askpass", Self.agentQuestion], environment: PromptRun.environment(environment), ready: nil)
    }

    /// "yes⏎" typed for an earlier question, arriving as this one appears, answers nothing.
    @Test func keysTypedBeforeTheQuestionAppearedAreDiscarded() async throws {
        let run = try question()
        run.type("yes\r")
        #expect(await run.process.waitForScreen(containing: "Allow use", deadline: .seconds(10)))
        #expect(await run.stillAsking(), "a leftover answered the question")
        run.type("no\r")
        #expect(await run.exit() == .exited(1))
        #expect(run.process.standardOutput == "")
        #expect(run.terminalRestored)
    }

    @Test func enterAloneAndOtherWordsNeverAnswer() async throws {
        let run = try question()
        #expect(await run.process.waitForScreen(containing: "Allow use", deadline: .seconds(10)))
        await run.waitPastTheGrace()
        run.type("\r")
        #expect(await run.waitForEvent("help"))
        run.type("ok\r")
        let helpSaidAgain = await run.logEntries().filter { $0.event == "help" }.count >= 2
        let helpSaidOnceMore = await run.waitForEvent("help")
        #expect(helpSaidAgain || helpSaidOnceMore)
        #expect(await run.stillAsking(), "Enter or 'ok' answered")
        run.type("YES\r")
        #expect(await run.exit() == .exited(0))
        #expect(run.process.standardOutput == "yes\n")
    }

    /// A long stray line once said how to answer once per key past the answer limit (~40 in a row).
    @Test func aLongStrayLineIsToldHowToAnswerOnce() async throws {
        let run = try question()
        #expect(await run.process.waitForScreen(containing: "Allow use", deadline: .seconds(10)))
        await run.waitPastTheGrace()
        for _ in 0..<170 { run.type("x") }
        run.type([0x1B])
        #expect(await run.exit() == .exited(130), "Esc cancels the question")
        let helps = await run.logEntries().filter { $0.event == "help" && $0.text.hasPrefix("Type the whole word") }
        #expect(helps.count == 1, "\(helps.count) times")
    }

    @Test func everyLineOfTheQuestionIsShownAndSpoken() async throws {
        let run = try question()
        #expect(await run.process.waitForScreen(containing: "Allow use", deadline: .seconds(10)))
        let prompt = try #require(await run.logEntries(atLeast: 1).first)
        // The question first, then the fingerprint, for a key to cut short; the voice spells it in groups.
        #expect(
            prompt.text.hasPrefix(
                "Allow use of key /root/.ssh/id_ed25519? Yes or no. Key fingerprint SHA256:3uW0xQk7J2r0vC9cVJgk1m1v4c4qG7mH1Xb9Yz0aBcD."
            ), "\(prompt.text)")
        #expect(
            visibleText(run.process.screen).contains(
                "Key fingerprint SHA256:3uW0xQk7J2r0vC9cVJgk1m1v4c4qG7mH1Xb9Yz0aBcD"))
        run.type([0x1B])
        #expect(await run.exit() == .exited(130), "Esc cancels the question")
    }

    /// ssh's new-host question: a pasted fingerprint goes to ssh exactly as pasted, once Enter is pressed.
    @Test func aPastedFingerprintAnswersTheHostKeyQuestion() async throws {
        let fingerprint = "SHA256:3uW0xQk7J2r0vC9cVJgk1m1v4c4qG7mH1Xb9Yz0aBcD"
        let text = """
            The authenticity of host 'build.example.org (192.0.2.7)' can't be established.
            ED25519 key fingerprint is \(fingerprint).
            Are you sure you want to continue connecting (yes/no/[fingerprint])? 
            """
        let run = try await PromptRun(["--askpass", text], ready: "continue connecting")
        await run.waitPastTheGrace()
        run.type("\u{1B}[200~\(fingerprint)\u{1B}[201~")
        #expect(await run.waitForEvent("paste"))
        #expect(await run.stillAsking(), "a paste answered without Enter")
        run.type("\r")
        #expect(await run.exit() == .exited(0))
        #expect(run.process.standardOutput == fingerprint + "\n")
        #expect(visibleText(run.process.screen).contains("ED25519 key fingerprint is \(fingerprint)"))
    }

    /// Keys typed after the code was complete do not reach the next program (here, the shell's `read`).
    @Test func nothingTypedIsLeftForTheNextProgram() async throws {
        for arguments in [["--speech", "none"], ["--speech", "none", "--charset", "any"]] {
            let process = try PseudoTerminalProcess(
                executable: "/bin/sh",
                arguments: [
                    "-c", "\"$0\" \"$@\"; stty -icanon min 0 time 5; dd bs=64 count=1 2>/dev/null | od -An -c",
                    PromptRun.binary,
                ] + arguments,
                environment: PromptRun.environment())
            #expect(await process.waitForScreen(containing: "Verification code", deadline: .seconds(10)))
            // Keys that come within the grace after the question appeared are no answer; under load, the screen can
            // be read before the prompt has noted the moment it drew it.
            await process.waitPastTheGrace()
            // One write: the keys typed after the code are already waiting when it completes. (Keys typed after
            // the prompt has exited are the next program's, as with any program.)
            process.type("123456\r789\rrm -rf x\r")
            #expect(await process.waitForExit(deadline: .seconds(10)) == .exited(0))
            #expect(process.standardOutput.hasPrefix("123456\n"), "\(process.standardOutput)")
            #expect(!process.standardOutput.contains("7"), "left for the next program: \(process.standardOutput)")
        }
    }

    /// A FIDO key's "Confirm user presence": said, no answer needed, ended by ssh's SIGTERM, terminal restored.
    @Test func aUserPresenceNoticeWaitsForSSHToEndIt() async throws {
        let run = try await PromptRun(
            ["--askpass", "Confirm user presence for key ED25519-SK SHA256:abc"],
            environment: PromptRun.environment(["SSH_ASKPASS_PROMPT": "none"]), ready: "Touch your security key")
        await run.waitPastTheGrace()
        run.type("yes\r")
        #expect(await run.waitForEvent("help"))
        #expect(await run.exit(deadline: .milliseconds(300)) == nil, "a notice was answered")
        run.process.sendSignal(SIGTERM)
        #expect(await run.exit() == .signaled(SIGTERM))
        #expect(run.process.standardOutput == "")
        #expect(run.terminalRestored)
        #expect(await run.logEntries().first?.text.contains("Nothing to type") == true)
    }
}

/// A question asked again by the same caller after a rejection says so first.
@Suite(.runsPrograms, .serialized)
struct RetrySaidAloudEndToEndTests {
    /// Runs `sh -c SCRIPT` on a pty: the shell is the caller (the askpass program's parent) for every ask.
    private func caller(_ script: String, runtime: String) throws -> PseudoTerminalProcess {
        try PseudoTerminalProcess(
            executable: "/bin/sh", arguments: ["-c", script, PromptRun.binary],
            environment: PromptRun.environment(["XDG_RUNTIME_DIR": runtime]))
    }

    @Test func aSecondAskOfTheSameQuestionSaysThePreviousAnswerWasNotAccepted() async throws {
        let runtime = PromptRun.privateDirectory()
        let log = runtime + "/speech.jsonl"
        let ask = "\"$0\" --speech none --speech-log \(log) --askpass -- '[sudo] password for joe: '"
        let process = try caller(
            "\(ask); \(ask); \(ask) ; \"$0\" --speech none --speech-log \(log) --askpass -- 'Verification code: '",
            runtime: runtime)
        // Each ask starts empty (what was queued before it is discarded): type only once it is up.
        for (index, answer) in ["wrong\r", "right\r", "again\r", "123456"].enumerated() {
            #expect(waitForPrompts(index + 1, in: log), "ask \(index + 1) never came")
            process.type(answer)
        }
        #expect(await process.waitForExit(deadline: .seconds(10)) == .exited(0))
        let prompts = promptLines(log)
        try #require(prompts.count == 4)
        #expect(!prompts[0].contains("not accepted"))
        #expect(prompts[1].contains("The previous answer was not accepted. password for joe"))
        #expect(prompts[2].contains("The previous answer was not accepted."))
        #expect(!prompts[3].contains("not accepted"), "another question is not a retry")
        #expect(visibleText(process.screen).contains("The previous answer was not accepted."))
        let stored = try String(contentsOfFile: runtime + "/otc-prompt/last-answer", encoding: .utf8)
        #expect(!stored.contains("right") && !stored.contains("sudo"), "nothing secret or worded is kept")
    }

    private func promptLines(_ log: String) -> [Substring] {
        ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").filter {
            $0.contains(#""event": "prompt""#)
        }
    }

    /// Waits (bounded) until the speech log holds `count` prompts.
    private func waitForPrompts(_ count: Int, in log: String) -> Bool {
        let clock = ContinuousClock()
        let end = clock.now + .seconds(10)
        while clock.now < end {
            if promptLines(log).count >= count { return true }
            usleep(10_000)
        }
        return false
    }

    @Test func theNoAudioDeviceNoticeIsGivenOncePerLoginSession() async throws {
        let runtime = PromptRun.privateDirectory()
        let log = runtime + "/speech.jsonl"
        // One shell: one session, two prompts.
        let process = try caller("\"$0\" --speech-log \(log); \"$0\" --speech-log \(log)", runtime: runtime)
        #expect(await process.waitForScreen(containing: "Verification code", deadline: .seconds(10)))
        // Said once the voice is found missing, which a busy machine may take longer than the code takes to type.
        #expect(await process.waitForScreen(containing: "no audio device", deadline: .seconds(20)))
        process.type("111111")
        #expect(await process.waitForStandardOutput(containing: "111111", deadline: .seconds(10)))
        // The second prompt is up and reading: it has said its question (a code prompt keeps what is typed ahead,
        // but the first one's restore of the terminal would drop it).
        #expect(await process.wait(deadline: .seconds(10)) { _ in self.promptLines(log).count >= 2 })
        process.type("222222")
        #expect(await process.waitForExit(deadline: .seconds(10)) == .exited(0))
        #expect(process.screen.components(separatedBy: "no audio device").count == 2, "\(process.screen)")
    }
}

/// An askpass started with no terminal (an agent started by systemd) says why in the system log.
@Suite(.runsPrograms) struct NoTerminalEndToEndTests {
    /// In a mount namespace of its own, /dev is a fresh tmpfs with a null device and a /dev/log socket the test
    /// reads: the real system log is never touched.
    static let script = #"""
        set -e
        mount -t tmpfs otc-test-dev /dev
        mknod -m 666 /dev/null c 1 3
        exec python3 -c '
        import os, socket, sys
        log = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        log.bind("/dev/log")
        log.settimeout(5)
        pid = os.fork()
        if pid == 0:
            os.setsid()
            null = os.open("/dev/null", os.O_RDWR)
            os.dup2(null, 0)
            os.execv(sys.argv[1], [sys.argv[1], "Allow use of key id_ed25519?"])
        print(log.recv(4096).decode())
        _, status = os.waitpid(pid, 0)
        print("status", os.waitstatus_to_exitcode(status))
        ' "$0"
        """#

    @Test(.enabled(if: Namespaces.available(["-m"]), "needs a mount namespace: root, and a machine that allows it"))
    func theReasonGoesToTheSystemLogAndStderr() async throws {
        let environment = PromptRun.environment(["SSH_ASKPASS": PromptRun.binary, "SSH_ASKPASS_PROMPT": "confirm"])
        // A runtime directory (the test's own) that others may write in: the question cannot be posted for a
        // password agent either (`AgentQuestion`), so there is no way to ask at all.
        #expect(chmod(environment["XDG_RUNTIME_DIR"]!, 0o770) == 0)
        let process = try PseudoTerminalProcess(
            executable: "/usr/bin/unshare", arguments: ["-m", "/bin/sh", "-c", Self.script, PromptRun.binary],
            environment: environment, terminal: false)
        #expect(await process.waitForExit(deadline: .seconds(15)) == .exited(0))
        let output = process.standardOutput
        #expect(output.contains("otc-prompt["), "\(output) \(process.standardErrorText)")
        #expect(output.contains("no terminal to prompt on"))
        #expect(output.hasPrefix("<84>"), "authpriv.warning")
        #expect(output.contains("status 74"))
        #expect(process.standardErrorText.contains("no terminal to prompt on"))
    }
}
