import OTCPromptCore
import OTCPromptTestSupport
import Testing

/// The end-to-end tests read the pty through `ScreenModel`; here it is checked against what the renderers
/// really emit, and against the garbling it exists to catch.
@Suite struct ScreenModelTests {
    let snapshot = FieldSnapshot(label: "Verification code", characters: [], length: 6, mask: false, isError: false)

    func typed(_ text: String) -> FieldSnapshot {
        var snapshot = snapshot
        snapshot.characters = Array(text)
        return snapshot
    }

    @Test func aLineRenderersEchoesAndDeletesReadAsTheFieldDoes() {
        var renderer = LineRenderer()
        var output = renderer.render(typed(""))
        output += renderer.render(typed("98")) + renderer.render(typed("985")) + renderer.render(typed("98"))
        output += renderer.render(typed("987")) + renderer.finish()
        #expect(ScreenModel(output).lines == ["Verification code: 987"])
    }

    @Test func aLineGluedToTheFieldIsOneLineOnTheScreen() {
        let screen = ScreenModel(
            "Verification code: 12" + "speech-dispatcher stopped answering\r\n56, code complete\r\n")
        #expect(screen.lines == ["Verification code: 12speech-dispatcher stopped answering", "56, code complete"])
    }

    @Test func cursorMovesAndErasesAreApplied() {
        let screen = ScreenModel(
            "first\r\nsecond\u{1B}[1A\r\u{1B}[2Kone\u{1B}[1B\rtwo\u{1B}[K\r\n\u{1B}[31mred\u{1B}[0m")
        #expect(screen.lines == ["one", "two", "red"])
    }

    @Test func aLineLongerThanTheScreenIsWrappedOnTheScreenButReadAsOneLine() {
        let screen = ScreenModel("abcdefgh\r\nxy", columns: 5)
        #expect(screen.rowsShown == ["abcde", "fgh", "xy"])
        #expect(screen.lines == ["abcdefgh", "xy"])
    }
}
