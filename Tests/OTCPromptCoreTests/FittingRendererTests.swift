import Testing

@testable import OTCPromptCore

/// The field is never drawn across a row the terminal wrapped.
@Suite struct FittingRendererTests {
    static func line(columns: Int?) -> FittingRenderer {
        var renderer = FittingRenderer(inline: LineRenderer(), field: LineRenderer(), fieldColumns: \.lineFieldColumns)
        renderer.fit(columns: columns)
        return renderer
    }

    static func boxes(columns: Int?) -> FittingRenderer {
        var renderer = FittingRenderer(
            inline: BoxesRenderer(colorDepth: .none), field: BoxesRenderer(colorDepth: .none),
            fieldColumns: \.boxesColumns)
        renderer.fit(columns: columns)
        return renderer
    }

    @Test(arguments: [nil, 80, 26] as [Int?])
    func whereItFitsItDrawsExactlyAsTheLineRenderer(columns: Int?) {
        var fitting = Self.line(columns: columns)
        var plain = LineRenderer()
        for state in ["", "9", "98", "9", "985391"] {
            #expect(
                fitting.render(fieldState(state, label: "Verification code"))
                    == plain.render(
                        fieldState(state, label: "Verification code")))
        }
        #expect(fitting.layout == .inline)
    }

    @Test(arguments: [20, 25, 12])
    func aNarrowPaneGetsTheLabelOnItsOwnRowAndRedrawsOnlyTheField(columns: Int) {
        var renderer = Self.line(columns: columns)
        let first = renderer.render(fieldState("", label: "Verification code"))
        #expect(first.hasSuffix("code:\r\n"))
        #expect(renderer.layout == .labelAbove)
        #expect(renderer.render(fieldState("9", label: "Verification code")) == "9")
        // Backspace steps back on the field's own row.
        #expect(renderer.render(fieldState("", label: "Verification code")) == "\u{8} \u{8}")
        for _ in 0..<3 {
            let redraw = renderer.redraw(fieldState("98", label: "Verification code"))
            #expect(
                !redraw.contains("Verification"), "Ctrl-L and resizes draw the label again: \(redraw.debugDescription)")
            #expect(redraw == "\r\u{1B}[2K98")
        }
    }

    @Test func aLongLabelAtEightyColumnsIsBrokenAtSpacesAboveTheField() {
        let label = String(repeating: "Enter the code we sent you ", count: 4)
        var renderer = Self.line(columns: 80)
        let first = renderer.render(fieldState("", label: label))
        #expect(renderer.layout == .labelAbove)
        let rows = first.components(separatedBy: "\r\n")
        #expect(rows.count == 3)
        #expect(rows.dropLast().allSatisfy { TerminalWidth.columns(of: $0) < 80 })
        #expect(rows.last == "")
    }

    @Test func boxesThatDoNotFitBesideTheLabelGoBelowIt() {
        var renderer = Self.boxes(columns: 20)
        let first = renderer.render(fieldState("", label: "Verification code"))
        #expect(first.hasPrefix("Verification code:\r\n▕"))
        #expect(renderer.layout == .labelAbove)
        #expect(!renderer.redraw(fieldState("1", label: "Verification code")).contains("Verification"))
    }

    @Test func aSecretWiderThanTheTerminalIsDrawnAppendOnly() {
        var renderer = Self.line(columns: 20)
        _ = renderer.render(fieldState("", length: 256, label: "Password", mask: true))
        #expect(renderer.layout == .inline)
        let long = String(repeating: "x", count: 25)
        let grown = renderer.render(fieldState(long, length: 256, label: "Password", mask: true))
        #expect(renderer.layout == .appendOnly)
        #expect(grown.hasPrefix("\r\n"))
        // Append-only never moves back: a delete starts a new line.
        let deleted = renderer.render(fieldState(String(long.dropLast()), length: 256, label: "Password", mask: true))
        #expect(!deleted.contains("\u{8}"))
    }

    @Test func aResizeAcrossTheLimitEndsTheOldDrawingAndStartsBelowIt() {
        var renderer = Self.line(columns: 80)
        _ = renderer.render(fieldState("98", label: "Verification code"))
        renderer.fit(columns: 20)
        let after = renderer.redraw(fieldState("98", label: "Verification code"))
        #expect(after == "\r\nVerification code:\r\n98")
        #expect(renderer.finish() == "\r\n")
        #expect(renderer.layout == nil)
    }

    @Test func aFieldWithWideCharactersIsMeasuredByTheirColumns() {
        var renderer = Self.line(columns: 14)
        _ = renderer.render(fieldState("", length: 256, label: "Senha", mask: false))
        _ = renderer.render(fieldState("界界界界", length: 256, label: "Senha", mask: false))
        #expect(renderer.layout == .labelAbove)
    }
}
