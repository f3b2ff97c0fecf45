import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// The boxes style on a real pseudo-terminal: what a sighted helper sees after each change.
@Suite(.runsPrograms, .serialized)
struct BoxesEndToEndTests {
    static let colourTerminal = PromptRun.environment(["COLORTERM": "truecolor", "LANG": "C.UTF-8"])

    /// The field's line as a person sees it once the screen has settled: the text after the last
    /// carriage return, with the backspaces that move the cursor applied.
    static func settledLine(_ screen: String) -> String {
        var cells: [Character] = []
        var cursor = 0
        for character in visibleText(screen) {
            switch character {
            case "\r": cursor = 0
            case "\n":
                cells = []
                cursor = 0
            case "\u{8}": cursor = max(0, cursor - 1)
            default:
                if cursor < cells.count { cells[cursor] = character } else { cells.append(character) }
                cursor += 1
            }
        }
        return String(cells)
    }

    /// Waits (bounded) until the settled line is `line`: the screen has caught up with the last key.
    /// The caller's own check then says what was there instead, if it never was.
    static func waitForLine(_ run: PromptRun, _ line: String) {
        _ = run.process.wait(deadline: .seconds(5)) { settledLine($0.screen) == line }
    }

    @Test func typingDrawsOneBoxPerCharacterOnOneLine() async throws {
        let run = try await PromptRun(["--no-auto-submit"], environment: Self.colourTerminal)
        run.type("985")
        #expect(await run.waitForEvent("digit"))
        Self.waitForLine(run, "Verification code: ▕9▏▕8▏▕5▏▕•▏▕•▏▕•▏")
        #expect(Self.settledLine(run.process.screen) == "Verification code: ▕9▏▕8▏▕5▏▕•▏▕•▏▕•▏")
        // Truecolor outlines: the first box in the gradient's start colour.
        #expect(run.process.screen.contains("\u{1b}[38;2;59;130;246m▕"))
        run.type([0x7f])
        #expect(await run.waitForEvent("delete"))
        Self.waitForLine(run, "Verification code: ▕9▏▕8▏▕•▏▕•▏▕•▏▕•▏")
        #expect(Self.settledLine(run.process.screen) == "Verification code: ▕9▏▕8▏▕•▏▕•▏▕•▏▕•▏")
        run.type([0x03])
        #expect(await run.exit() == .exited(130))
        #expect(run.terminalRestored)
    }

    @Test func aFailedCheckTurnsTheBoxesRedUntilTheNextKey() async throws {
        let run = try await PromptRun(["--check", "exit 1", "--placeholder", "_"], environment: Self.colourTerminal)
        run.type("111111")
        #expect(await run.waitForEvent("check-failed"))
        let red = "\u{1b}[38;2;255;0;0m"
        _ = await run.process.wait(deadline: .seconds(5)) {
            $0.screen.components(separatedBy: red).count - 1 >= 6
                && Self.settledLine($0.screen) == "Verification code: ▕1▏▕1▏▕1▏▕1▏▕1▏▕1▏"
        }
        let afterFailure = run.process.screen
        #expect(afterFailure.components(separatedBy: red).count - 1 >= 6, "every outline red after the failed check")
        #expect(Self.settledLine(afterFailure) == "Verification code: ▕1▏▕1▏▕1▏▕1▏▕1▏▕1▏")
        run.type("2")
        #expect(await run.waitForEvent("digit", deadline: .seconds(5)))
        Self.waitForLine(run, "Verification code: ▕2▏▕_▏▕_▏▕_▏▕_▏▕_▏")
        let afterKey = String(run.process.screen.dropFirst(afterFailure.count))
        #expect(!afterKey.contains(red), "the next key clears the error colour")
        #expect(Self.settledLine(run.process.screen) == "Verification code: ▕2▏▕_▏▕_▏▕_▏▕_▏▕_▏")
        run.type([0x03])
        #expect(await run.exit() == .exited(130))
    }

    @Test func noColorDrawsPlainBoxesOrALine() async throws {
        let run = try await PromptRun([], environment: PromptRun.environment(["NO_COLOR": "1", "LANG": "C.UTF-8"]))
        run.type("12")
        #expect(await run.waitForEvent("digit"))
        run.type([0x03])
        #expect(await run.exit() == .exited(130))
        let screen = run.process.screen
        // Modes and the question about kitty's keyboard protocol, which draw nothing.
        let withoutModes = screen.replacingOccurrences(of: "\u{1b}[?2004h", with: "")
            .replacingOccurrences(of: "\u{1b}[?2004l", with: "").replacingOccurrences(of: "\u{1b}[?u\u{1b}[c", with: "")
        #expect(
            !withoutModes.contains("\u{1b}["), "NO_COLOR: no colour or other sequence: \(withoutModes.debugDescription)"
        )
    }

    @Test func resizingRedrawsTheLineWithoutLosingInput() async throws {
        let run = try await PromptRun(["--no-auto-submit"], environment: Self.colourTerminal)
        run.type("98")
        #expect(await run.waitForEvent("digit"))
        Self.waitForLine(run, "Verification code: ▕9▏▕8▏▕•▏▕•▏▕•▏▕•▏")
        let beforeResize = run.process.screen.count
        run.process.resize(columns: 60, rows: 20)
        #expect(await run.process.waitForScreen(containing: "\u{1b}[2KVerification code: ", deadline: .seconds(5)))
        let redrawn = String(run.process.screen.dropFirst(beforeResize))
        #expect(redrawn.contains("Verification code: "), "SIGWINCH redraws the line: \(redrawn.debugDescription)")
        #expect(Self.settledLine(run.process.screen) == "Verification code: ▕9▏▕8▏▕•▏▕•▏▕•▏▕•▏")
        run.type("5391\r")
        #expect(await run.exit() == .exited(0))
        #expect(run.process.standardOutput == "985391\n")
    }
}
