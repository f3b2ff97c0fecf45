import OTCPromptTestSupport
import Testing

@testable import OTCPromptCore

/// When announcements become text lines, the field drawn so far is taken off the screen: left there it
/// would no longer track what is typed, and a braille display would read it among the lines.
@Suite struct FieldEraseTests {
    static let label = "Verification code"

    /// The screen after `drawn` states are drawn, the field erased, and `lines` written in its place.
    static func screen(_ renderer: inout some FieldRenderer, columns: Int, drawn: [String], lines: [String])
        -> [String]
    {
        var output = "earlier line\r\n"
        for state in drawn { output += renderer.render(fieldState(state, label: label)) }
        output += renderer.erase()
        for line in lines { output += line + "\r\n" }
        return ScreenModel(output, columns: columns).lines.filter { !$0.isEmpty }
    }

    @Test(arguments: [80, 20])
    func theBoxesAndTheirLabelGiveWayToTheLines(columns: Int) {
        var renderer = FittingRendererTests.boxes(columns: columns)
        let lines = Self.screen(
            &renderer, columns: columns, drawn: ["", "1", "12", "123", "1234"], lines: ["notice", "5"])
        #expect(lines == ["earlier line", "notice", "5"])
    }

    @Test(arguments: [80, 20])
    func theLineAndItsLabelGiveWayToTheLines(columns: Int) {
        var renderer = FittingRendererTests.line(columns: columns)
        let lines = Self.screen(&renderer, columns: columns, drawn: ["", "9", "98"], lines: ["notice", "5"])
        #expect(lines == ["earlier line", "notice", "5"])
    }

    @Test func aLabelBrokenOverTwoRowsIsErasedWithTheFieldsRow() {
        var renderer = FittingRendererTests.line(columns: 40)
        _ = renderer.render(fieldState("", label: String(repeating: "Enter the code we sent ", count: 2)))
        #expect(renderer.layout == .labelAbove)
        #expect(renderer.erase() == "\r\u{1B}[2A\u{1B}[J")
        #expect(renderer.layout == nil)
    }

    @Test func theFieldsRowIsClearedFromItsStartAndNothingIsErasedTwice() {
        var renderer = FittingRendererTests.boxes(columns: 80)
        _ = renderer.render(fieldState("12", label: Self.label))
        #expect(renderer.erase() == "\r\u{1B}[J")
        #expect(renderer.erase() == "")
    }

    @Test func whatCannotStepBackEndsItsLineInstead() {
        var plain = AppendOnlyRenderer()
        _ = plain.render(fieldState("12", label: Self.label))
        #expect(plain.erase() == "\r\n")
        var none = NullRenderer()
        #expect(none.erase() == "")
    }
}
