import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// kitty's keyboard protocol on a real pty, the test answering as kitty does (or as a terminal without it does):
/// the mode goes on only once answered, the Esc key (CSI 27 u) ends the prompt at once whatever the Esc wait, and
/// the mode goes off again with the terminal's restore.
@Suite(.runsPrograms, .serialized)
struct KeyboardProtocolEndToEndTests {
    static let asked = "\u{1B}[?u\u{1B}[c"
    static let on = "\u{1B}[>1u"
    static let off = "\u{1B}[<u"

    @Test func aTerminalWithTheProtocolGetsItAndEscIsAtOnceWhateverTheWait() async throws {
        let run = try await PromptRun(["--escape-delay", "5"])
        #expect(await run.process.waitForScreen(containing: Self.asked, deadline: .seconds(10)))
        run.type("\u{1B}[?0u\u{1B}[?62;22c")
        #expect(await run.process.waitForScreen(containing: Self.on, deadline: .seconds(10)), "\(run.process.screen)")
        run.type("12")
        #expect(await run.waitForEvent("digit", count: 2))
        run.type("\u{1B}[27u")
        // A lone ESC would wait the 5 s set; the Esc key the protocol sends is Esc as it comes.
        #expect(await run.exit(deadline: .seconds(3)) == .exited(130))
        let screen = run.process.screen
        let pushed = try #require(screen.range(of: Self.on))
        #expect(screen.range(of: Self.off, range: pushed.upperBound..<screen.endIndex) != nil, "\(screen)")
        #expect(run.terminalRestored)
    }

    @Test func aTerminalWithoutItIsNeverSwitchedAndAnswersNothingToTheShell() async throws {
        let run = try ShellAfterPrompt(["--speech", "none"])
        #expect(await run.process.waitForScreen(containing: Self.asked, deadline: .seconds(30)))
        run.type("\u{1B}[?62;22c")
        run.type("123456")
        let result = run.result()
        #expect(result?.status == 0)
        #expect(result?.left == "")
        #expect(!run.process.screen.contains(Self.on))
    }

    /// The prompt ends before the terminal has answered (a code typed ahead): the late answers are the prompt's to
    /// read, not the shell's. (A wait of 1 s gives the answers 2 s: the test answers once it has seen the question.)
    @Test func answersThatComeAfterATypedAheadCodeNeverReachTheShell() async throws {
        let run = try ShellAfterPrompt(["--speech", "none", "--escape-delay", "1"])
        run.type("654321")
        #expect(await run.process.waitForScreen(containing: Self.asked, deadline: .seconds(30)))
        run.type("\u{1B}[?0u\u{1B}[?62;22c")
        let result = run.result()
        #expect(result?.status == 0)
        #expect(result?.left == "", "left for the shell: \(result?.left ?? "?")")
        #expect(run.process.standardOutput == "654321\n")
    }

    @Test(arguments: [["TERM": "linux"], ["TERM": "tmux-256color"], ["TERM": "xterm-256color", "ACCESSIBLE": "1"]])
    func theConsoleTmuxAndPlainOutputAreNeverAsked(extra: [String: String]) async throws {
        let run = try await PromptRun([], environment: PromptRun.environment(extra))
        run.type("123456")
        #expect(await run.exit() == .exited(0))
        #expect(!run.process.screen.contains("\u{1B}[?u"))
    }
}
