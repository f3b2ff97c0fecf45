import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// The built binary on a pseudo-terminal, typed at as a user would.
@Suite(.runsPrograms)
struct PromptEndToEndTests {
    @Test func typedCodeIsPrintedOnStdoutAlone() async throws {
        let run = try await PromptRun([])
        run.type("985391")
        #expect(await run.exit() == .exited(0))
        #expect(run.process.standardOutput == "985391\n")
        #expect(run.terminalRestored)
        let events = await run.logEntries().map(\.event)
        #expect(events.first == "prompt")
        #expect(events.filter { $0 == "digit" }.count == 5)
        #expect(events.last == "complete")
    }

    @Test func theLastCharacterIsDrawnBeforeTheCodeIsSubmitted() async throws {
        let run = try await PromptRun(["--style", "line"])
        run.type("985391")
        #expect(await run.exit() == .exited(0))
        #expect(visibleText(run.process.screen).contains("Verification code: 985391"))
    }

    @Test func eachDigitIsSpokenAsItself() async throws {
        let run = try await PromptRun(["--no-auto-submit"])
        run.type("98")
        #expect(await run.waitForEvent("digit"))
        let digits = await run.logEntries(atLeast: 3).filter { $0.event == "digit" }.map(\.text)
        #expect(digits.count == 2)
        #expect(digits.first?.contains("9") == true)
        run.type([0x03])
        #expect(await run.exit() == .exited(130))
    }

    @Test func backspaceDeletesTheLastCharacter() async throws {
        let run = try await PromptRun([])
        run.type("9853")
        run.type([0x7f])
        #expect(await run.waitForEvent("delete"))
        run.type("391")
        #expect(await run.exit() == .exited(0))
        #expect(run.process.standardOutput == "985391\n")
        let deleted = await run.logEntries().first { $0.event == "delete" }
        #expect(deleted?.text.contains("3") == true)
    }

    @Test func controlUClearsAndTypingStartsOver() async throws {
        let run = try await PromptRun([])
        run.type("111")
        run.type([0x15])
        #expect(await run.waitForEvent("clear"))
        run.type("222333")
        #expect(await run.exit() == .exited(0))
        #expect(run.process.standardOutput == "222333\n")
    }

    @Test func controlRReadsTheCodeBackAsOneGroupedUnit() async throws {
        let run = try await PromptRun(["--no-auto-submit"])
        run.type("985391")
        run.type([0x12])
        #expect(await run.waitForEvent("readback"))
        let readback = try #require(await run.logEntries().last { $0.event == "readback" })
        #expect(readback.text.hasPrefix("9 8 5, 3 9 1"))
        #expect(readback.text.contains("6"))
        run.type("\r")
        #expect(await run.exit() == .exited(0))
        #expect(run.process.standardOutput == "985391\n")
    }

    @Test func enterOnAnIncompleteCodeSaysWhatIsMissing() async throws {
        let run = try await PromptRun(["--no-auto-submit"])
        run.type("98\r")
        #expect(await run.waitForEvent("incomplete"))
        run.type([0x1b])
        #expect(await run.exit() == .exited(130))
        #expect(run.process.standardOutput == "")
    }

    @Test func rejectedCharacterLeavesTheFieldUnchanged() async throws {
        let run = try await PromptRun([])
        run.type("98a")
        #expect(await run.waitForEvent("reject"))
        run.type("5391")
        #expect(await run.exit() == .exited(0))
        #expect(run.process.standardOutput == "985391\n")
    }

    @Test func arrowAndFunctionKeysChangeNothing() async throws {
        let run = try await PromptRun([])
        run.type("98")
        run.type("\u{1b}[A\u{1b}[D\u{1b}OP\u{1b}[15~\u{1b}[1;5C")
        run.type("5391")
        #expect(await run.exit() == .exited(0))
        #expect(run.process.standardOutput == "985391\n")
    }

    @Test func bracketedPasteOfAnSMSTakesTheCode() async throws {
        let run = try await PromptRun([])
        run.type("\u{1b}[200~Your code is G-123456. Do not share it.\u{1b}[201~")
        #expect(await run.exit() == .exited(0))
        #expect(run.process.standardOutput == "123456\n")
        let events = await run.logEntries().map(\.event)
        #expect(events.filter { $0 == "digit" }.isEmpty, "a paste is announced once, not per character: \(events)")
    }

    @Test func pasteWithoutACodeIsRejected() async throws {
        let run = try await PromptRun([])
        run.type("\u{1b}[200~no code here\u{1b}[201~")
        #expect(await run.waitForEvent("reject"))
        run.type("654321")
        #expect(await run.exit() == .exited(0))
        #expect(run.process.standardOutput == "654321\n")
    }

    @Test func escapeAloneCancels() async throws {
        let run = try await PromptRun([])
        run.type("12")
        run.type([0x1b])
        #expect(await run.exit() == .exited(130))
        #expect(run.process.standardOutput == "")
        #expect(run.terminalRestored)
        #expect(await run.logEntries().last?.event == "cancel")
    }

    @Test func controlCCancels() async throws {
        let run = try await PromptRun([])
        run.type([0x03])
        #expect(await run.exit() == .exited(130))
        #expect(run.terminalRestored)
    }

    @Test func controlDOnAnEmptyFieldCancels() async throws {
        let run = try await PromptRun([])
        run.type([0x04])
        #expect(await run.exit() == .exited(130))
    }

    @Test func maskedCodeNeverReachesScreenOrLog() async throws {
        func session(_ code: String) async throws -> (texts: [String], screen: String) {
            let run = try await PromptRun(["--mask"])
            run.type(code)
            #expect(await run.exit() == .exited(0))
            #expect(run.process.standardOutput == code + "\n")
            let texts = await run.logEntries().map { "\($0.event): \($0.text)" }
            return (texts, visibleText(run.process.screen))
        }
        let first = try await session("987987")
        let second = try await session("789789")
        #expect(first.texts == second.texts, "masked announcements must not depend on the code")
        for character in "789" {
            #expect(!first.texts.joined().contains(character))
            #expect(!first.screen.contains(character))
        }
    }

    @Test func alnumCodesAreUpperCased() async throws {
        let run = try await PromptRun(["--charset", "alnum", "--length", "4"])
        run.type("ab1c")
        #expect(await run.exit() == .exited(0))
        #expect(run.process.standardOutput == "AB1C\n")
    }

    @Test func promptArgumentBecomesTheLabel() async throws {
        let run = try await PromptRun(["Bank code:"], ready: "Bank code")
        #expect(await run.logEntries(atLeast: 1).first?.text.hasPrefix("Bank code") == true)
        run.type("123456")
        #expect(await run.exit() == .exited(0))
    }

    @Test func portugueseFromTheEnvironment() async throws {
        let run = try await PromptRun([], environment: PromptRun.environment(["LANG": "pt_BR.UTF-8"]), ready: "Código")
        run.type("123456")
        #expect(await run.exit() == .exited(0))
        #expect(await run.logEntries().first?.text.hasPrefix("Código de verificação") == true)
    }

    @Test func textSpeechWritesEachAnnouncementAsALine() async throws {
        let run = try await PromptRun([], speech: "text", ready: "Verification code")
        run.type("9")
        #expect(await run.process.waitForScreen(containing: "\r\n9\r\n", deadline: .seconds(5)))
        run.type([0x03])
        #expect(await run.exit() == .exited(130))
        #expect(run.terminalRestored)
    }

    @Test func dumbTerminalGetsNoEscapeSequences() async throws {
        let run = try await PromptRun([], environment: PromptRun.environment(["TERM": "dumb"]))
        // One key per read, as a person types: on a dumb terminal a burst in one read is a paste.
        // Each key is typed once the one before it has been said, so each is a read of its own.
        for key in ["9", "8", "\u{7F}", "8", "5", "3", "9", "1"] {
            let said = await run.logEntries().count
            run.type(key)
            if key != "1" { #expect(await run.logEntries(atLeast: said + 1, deadline: .seconds(30)).count > said) }
        }
        #expect(await run.exit() == .exited(0))
        #expect(run.process.standardOutput == "985391\n")
        #expect(
            !run.process.screen.contains("\u{1b}"),
            "escape sequence on a dumb terminal: \(run.process.screen.debugDescription)")
    }

    @Test func bracketedPasteIsEnabledAndAlwaysDisabledAgain() async throws {
        let run = try await PromptRun([])
        run.type([0x03])
        #expect(await run.exit() == .exited(130))
        let screen = run.process.screen
        let on = try #require(screen.range(of: "\u{1b}[?2004h"))
        let off = try #require(screen.range(of: "\u{1b}[?2004l", options: .backwards))
        #expect(on.lowerBound < off.lowerBound)
    }

    @Test func usageErrorExits64() async throws {
        let run = try await PromptRun(["--length", "13"], ready: nil)
        #expect(await run.exit() == .exited(64))
        #expect(run.process.standardOutput == "")
    }

    /// With speech on (the default), whose start-up captures fd 2 for a moment, the one line must
    /// still arrive, every time.
    @Test(arguments: ["none", "espeak"])
    func noTerminalExits74WithOneLine(speech: String) async throws {
        for _ in 0..<5 {
            let process = try PseudoTerminalProcess(
                executable: PromptRun.binary, arguments: ["--speech", speech], environment: PromptRun.environment(),
                terminal: false)
            #expect(await process.waitForExit(deadline: .seconds(10)) == .exited(74))
            #expect(process.standardOutput == "")
            let lines = process.standardErrorText.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].contains("no terminal"), "stderr: \(process.standardErrorText)")
        }
    }
}
