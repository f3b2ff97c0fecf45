import Foundation
import OTCPromptTestSupport
import Testing

/// Issue 14 points 2 (last bullet) and 3 on a real pty: an arrow key split by a slow link, and a
/// paste on a terminal that cannot mark pastes.
@Suite(.serialized)
struct SlowLinkAndPasteEndToEndTests {
    /// An Esc and the rest of its arrow key further apart than the old 100 ms: still an arrow key.
    @Test(arguments: [
        (Duration.milliseconds(150), [String]()), (.milliseconds(250), []),
        (.milliseconds(700), ["--escape-delay", "1"]),
    ])
    func anArrowKeySplitByASlowLinkIsNoCancel(gap: Duration, options: [String]) throws {
        let run = try ShellAfterPrompt(["--speech", "none"] + options)
        #expect(run.process.waitForScreen(containing: "Verification code", deadline: .seconds(10)))
        run.type("\u{1B}")
        ShellAfterPrompt.pause(gap)
        run.type("[A")
        ShellAfterPrompt.pause(.milliseconds(50))
        run.type("123456")
        let result = run.result()
        #expect(result?.status == 0, "screen: \(run.process.screen.debugDescription)")
        #expect(result?.left == "")
        #expect(run.process.standardOutput == "123456\n")
    }

    /// Past the delay the Esc is a cancel, but the rest of the key, and what follows it on the
    /// wire, never reach the shell.
    @Test(arguments: [Duration.milliseconds(450), .milliseconds(700)])
    func anEscThatCancelsLeavesNothingOfItsKeyForTheShell(gap: Duration) throws {
        let run = try ShellAfterPrompt(["--speech", "none"])
        #expect(run.process.waitForScreen(containing: "Verification code", deadline: .seconds(10)))
        run.type("\u{1B}")
        ShellAfterPrompt.pause(gap)
        run.type("[A")
        ShellAfterPrompt.pause(.milliseconds(100))
        run.type("3456")
        let result = run.result()
        #expect(result?.status == 130)
        #expect(result?.left == "", "left for the shell: \(result?.left ?? "?")")
        #expect(run.process.standardOutput == "")
    }

    static func environment(term: String?) -> [String: String] {
        var environment = PromptRun.environment()
        environment["TERM"] = term
        return environment
    }

    /// Emacs shell mode (TERM=dumb), a serial console with no TERM at all, and an empty TERM.
    @Test(
        arguments: [
            ("dumb", "Your 2FA code is 123456. Do not share it.", "123456"),
            (nil, "Your 2FA code is 123456. Do not share it.", "123456"),
            ("", "Seu código de verificação é 654321. Não o compartilhe.", "654321"),
            ("dumb", "987 654\n", "987654"),
        ] as [(String?, String, String)])
    func anUnmarkedPasteFillsTheFieldAndWaitsForEnter(term: String?, sms: String, code: String) throws {
        let log = NSTemporaryDirectory() + "/otc-e2e-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: log) }
        let run = try ShellAfterPrompt(
            ["--speech", "none", "--speech-log", log], environment: Self.environment(term: term))
        #expect(run.process.waitForScreen(containing: "Verification code", deadline: .seconds(10)))
        run.type(sms)
        let logText = { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        let clock = ContinuousClock()
        let end = clock.now + .seconds(5)
        while !logText().contains("\"paste\""), clock.now < end { usleep(20_000) }
        #expect(logText().contains("press Enter"), "log: \(logText())")
        // Not submitted by itself: the prompt is still there half a second later.
        #expect(run.process.waitForExit(deadline: .milliseconds(500)) == nil)
        #expect(!run.process.screen.contains("status="))
        run.type("\r")
        let result = run.result()
        #expect(result?.status == 0)
        #expect(result?.left == "")
        #expect(run.process.standardOutput == code + "\n")
    }

    /// A person typing on the same terminal gives one key per read: the full field submits itself.
    @Test func oneKeyAtATimeOnADumbTerminalStillAutoSubmits() throws {
        let run = try ShellAfterPrompt(["--speech", "none"], environment: Self.environment(term: "dumb"))
        #expect(run.process.waitForScreen(containing: "Verification code", deadline: .seconds(10)))
        for digit in "985391" {
            run.type(String(digit))
            ShellAfterPrompt.pause(.milliseconds(150))
        }
        let result = run.result()
        #expect(result?.status == 0)
        #expect(run.process.standardOutput == "985391\n")
    }
}
