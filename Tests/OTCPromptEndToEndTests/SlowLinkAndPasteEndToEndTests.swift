import Foundation
import OTCPromptTestSupport
import Testing

/// On a real pty: a paste on a terminal that cannot mark pastes (an arrow key split by a slow link:
/// `EscapeEndToEndTests`).
@Suite(.runsPrograms, .serialized)
struct SlowLinkAndPasteEndToEndTests {
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
    func anUnmarkedPasteFillsTheFieldAndWaitsForEnter(term: String?, sms: String, code: String) async throws {
        let log = NSTemporaryDirectory() + "/otc-e2e-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: log) }
        let run = try ShellAfterPrompt(
            ["--speech", "none", "--speech-log", log], environment: Self.environment(term: term))
        #expect(await run.process.waitForScreen(containing: "Verification code", deadline: .seconds(10)))
        run.type(sms)
        let logText = { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        let clock = ContinuousClock()
        let end = clock.now + .seconds(5)
        while !logText().contains("\"paste\""), clock.now < end { usleep(20_000) }
        #expect(logText().contains("press Enter"), "log: \(logText())")
        // Not submitted by itself: the prompt is still there half a second later.
        #expect(await run.process.waitForExit(deadline: .milliseconds(500)) == nil)
        #expect(!run.process.screen.contains("status="))
        run.type("\r")
        let result = run.result()
        #expect(result?.status == 0)
        #expect(result?.left == "")
        #expect(run.process.standardOutput == code + "\n")
    }

    /// A paste the link hands over in pieces (a pty's reads, ssh's packets, a serial line's FIFO loads),
    /// cut in the middle of the code, inside a UTF-8 character, or many times: one paste, the whole
    /// message scanned, and nothing of it left for the shell.
    @Test(
        arguments: [
            ["Your 2FA code is 123", "456. Do not share it."],
            [
                "Seu c\u{C3}",
                "\u{B3}digo de verifica\u{C3}\u{A7}\u{C3}\u{A3}o \u{C3}\u{A9} 654321. N\u{C3}\u{A3}o compartilhe.",
            ],
            ["Your ", "2FA code", " is 1", "2", "3456", ". Do not", " share it.\n"],
        ].map { pieces in pieces.map { Array($0.unicodeScalars.map { UInt8($0.value) }) } })
    func anUnmarkedPasteSplitAcrossReadsIsOnePaste(pieces: [[UInt8]]) async throws {
        let log = NSTemporaryDirectory() + "/otc-e2e-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: log) }
        let run = try ShellAfterPrompt(
            ["--speech", "none", "--speech-log", log], environment: Self.environment(term: "dumb"))
        #expect(await run.process.waitForScreen(containing: "Verification code", deadline: .seconds(10)))
        for piece in pieces {
            run.process.type(piece)
            ShellAfterPrompt.pause(.milliseconds(15))
        }
        let logText = { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        let clock = ContinuousClock()
        let end = clock.now + .seconds(5)
        while !logText().contains("\"paste\""), clock.now < end { usleep(20_000) }
        ShellAfterPrompt.pause(.milliseconds(300))
        #expect(logText().components(separatedBy: "\"paste\"").count == 2, "one paste: \(logText())")
        run.type("\r")
        let result = run.result()
        #expect(result?.status == 0, "\(run.process.screen)")
        #expect(result?.left == "")
        let code = pieces.flatMap { $0 }.contains(0xC3) ? "654321" : "123456"
        #expect(run.process.standardOutput == code + "\n")
    }

    /// A person typing on the same terminal gives one key per read: the full field submits itself.
    @Test func oneKeyAtATimeOnADumbTerminalStillAutoSubmits() async throws {
        let run = try ShellAfterPrompt(["--speech", "none"], environment: Self.environment(term: "dumb"))
        #expect(await run.process.waitForScreen(containing: "Verification code", deadline: .seconds(10)))
        for digit in "985391" {
            run.type(String(digit))
            ShellAfterPrompt.pause(.milliseconds(150))
        }
        let result = run.result()
        #expect(result?.status == 0)
        #expect(run.process.standardOutput == "985391\n")
    }
}
