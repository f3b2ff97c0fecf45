import OTCPromptCore
import OTCPromptLoop
import OTCPromptTestSupport
import Testing

/// The field on the terminal as an output: fitted to the window before it is first drawn, lines written above it,
/// and nothing drawn or written twice once the announcements are the lines.
@Suite struct ScreenOutputTests {
    private let terminal = ScriptedTerminal(clock: ManualClock(), [])

    private func field(_ typed: String) -> FieldSnapshot {
        FieldSnapshot(label: "Code", characters: Array(typed), length: 6, mask: false, isError: false)
    }

    @Test func theFieldIsDrawnThenUpdatedByWhatChanged() {
        let screen = ScreenOutput(renderer: LineRenderer(), terminal: terminal)
        screen.draw(field("9"), whole: false)
        screen.draw(field("98"), whole: false)
        #expect(terminal.written == "Code: 98")
    }

    @Test func aNarrowWindowIsFittedBeforeTheFirstDraw() {
        terminal.columns = 8
        let capabilities = TerminalCapabilities(isDumb: false, colorDepth: .none, isUTF8: true)
        let renderer = makeRenderer(style: .line, speechIsText: false, capabilities: capabilities, boxes: .init())
        let screen = ScreenOutput(renderer: renderer, terminal: terminal)
        screen.draw(field("9"), whole: false)
        #expect(terminal.written.hasPrefix("Code:\r\n"), "the label on its own row: \(terminal.written.debugDescription)")
    }

    @Test func aLineAboveTheFieldEndsItsLineFirst() {
        let screen = ScreenOutput(renderer: LineRenderer(), terminal: terminal)
        screen.draw(field("9"), whole: false)
        screen.show(lines: ["Wrong code, try 2 of 3."], alsoSaid: true)
        #expect(terminal.written == "Code: 9\r\nWrong code, try 2 of 3.\r\n")
    }

    @Test func whereTheAnnouncementsAreTheLinesOnlyWhatTheyDoNotSayIsWritten() {
        let screen = ScreenOutput(renderer: NullRenderer(), terminal: terminal)
        screen.draw(field("9"), whole: true)
        screen.show(lines: ["Wrong code, try 2 of 3."], alsoSaid: true)
        screen.show(lines: ["otc-prompt: voice 'xx' is not installed"], alsoSaid: false)
        #expect(terminal.written == "otc-prompt: voice 'xx' is not installed\r\n")
    }

    @Test func turningToTextTakesTheFieldOffTheScreenAndDrawsNoMore() {
        let screen = ScreenOutput(renderer: LineRenderer(), terminal: terminal)
        screen.draw(field("98"), whole: false)
        screen.speechBecameText()
        let erased = terminal.written
        screen.draw(field("985"), whole: false)
        screen.end()
        #expect(erased.hasPrefix("Code: 98\r") && erased.count > "Code: 98\r".count, "\(erased.debugDescription)")
        #expect(terminal.written == erased)
    }
}
