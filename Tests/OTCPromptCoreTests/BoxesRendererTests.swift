import Testing

@testable import OTCPromptCore

/// The bytes of one box, as BoxesRenderer documents them.
private enum Box {
    static func filled(_ character: String, _ color: String) -> String {
        "\u{1B}[\(color)m▕\u{1B}[39m\(character)\u{1B}[\(color)m▏\u{1B}[39m"
    }
    static func active(_ color: String, _ placeholder: String = "•") -> String {
        "\u{1B}[1;\(color)m▕\u{1B}[7m\(placeholder)\u{1B}[27m▏\u{1B}[22;39m"
    }
    static func empty(_ color: String = grey, _ placeholder: String = "•") -> String {
        "\u{1B}[\(color)m▕\(placeholder)▏\u{1B}[39m"
    }
    static let grey = "38;2;128;128;128"
    static let red = "38;2;224;0;0"
}

/// Red to blue over six boxes: every step is a multiple of 51, easy to check by hand.
private let redToBlue = BoxesStyle(
    startColor: Color(red: 255, green: 0, blue: 0), endColor: Color(red: 0, green: 0, blue: 255))
private let gradient = [
    "38;2;255;0;0", "38;2;204;0;51", "38;2;153;0;102", "38;2;102;0;153", "38;2;51;0;204", "38;2;0;0;255",
]

@Suite struct BoxesRendererTests {
    @Test func firstDrawIsTheLabelThenSixBoxesWithTheCursorOnTheFirst() {
        var renderer = BoxesRenderer(style: redToBlue, colorDepth: .trueColor)
        let expected =
            "Code: \u{1B}[1;38;2;255;0;0m▕\u{1B}[7m•\u{1B}[27m▏\u{1B}[22;39m"
            + String(repeating: "\u{1B}[38;2;128;128;128m▕•▏\u{1B}[39m", count: 5)
            + String(repeating: "\u{8}", count: 18)
        #expect(renderer.render(fieldState("")) == expected)
    }

    @Test func filledBoxesCarryTheGradientAndTheCursorRestsAfterTheLastOne() {
        var renderer = BoxesRenderer(style: redToBlue, colorDepth: .trueColor)
        let expected =
            "Code: " + Box.filled("9", gradient[0]) + Box.filled("8", gradient[1]) + Box.filled("5", gradient[2])
            + Box.active(gradient[3]) + Box.empty() + Box.empty() + renderBackspaces(9)
        #expect(renderer.render(fieldState("985")) == expected)
    }

    @Test func allSixGradientColoursWhenFull() {
        var renderer = BoxesRenderer(style: redToBlue, colorDepth: .trueColor)
        let boxes = zip("985391", gradient).map { Box.filled(String($0), $1) }.joined()
        #expect(renderer.render(fieldState("985391")) == "Code: " + boxes)
    }

    @Test func typingRewritesOnlyTheFilledBoxAndTheNewActiveOne() {
        var renderer = BoxesRenderer(style: redToBlue, colorDepth: .trueColor)
        _ = renderer.render(fieldState(""))
        #expect(
            renderer.render(fieldState("9")) == Box.filled("9", gradient[0]) + Box.active(gradient[1])
                + renderBackspaces(3))
        #expect(
            renderer.render(fieldState("98")) == Box.filled("8", gradient[1]) + Box.active(gradient[2])
                + renderBackspaces(3))
        _ = renderer.render(fieldState("98539"))
        // The last box: no active box follows, the cursor ends after the line.
        #expect(renderer.render(fieldState("985391")) == Box.filled("1", gradient[5]))
    }

    @Test func deletingStepsBackOneBoxAndMovesTheHighlightBack() {
        var renderer = BoxesRenderer(style: redToBlue, colorDepth: .trueColor)
        _ = renderer.render(fieldState("98"))
        #expect(
            renderer.render(fieldState("9")) == renderBackspaces(3) + Box.active(gradient[1]) + Box.empty()
                + renderBackspaces(6))
        _ = renderer.render(fieldState("985391"))
        #expect(
            renderer.render(fieldState("98539")) == renderBackspaces(3) + Box.active(gradient[5]) + renderBackspaces(3))
    }

    @Test func clearingRewritesFromTheFirstBox() {
        var renderer = BoxesRenderer(style: redToBlue, colorDepth: .trueColor)
        _ = renderer.render(fieldState("98"))
        let expected = renderBackspaces(6) + Box.active(gradient[0]) + Box.empty() + Box.empty() + renderBackspaces(9)
        #expect(renderer.render(fieldState("")) == expected)
    }

    @Test func aReplacingPasteRewritesTheChangedBoxes() {
        var renderer = BoxesRenderer(style: redToBlue, colorDepth: .trueColor)
        _ = renderer.render(fieldState("98"))
        let boxes = zip("123456", gradient).map { Box.filled(String($0), $1) }.joined()
        #expect(renderer.render(fieldState("123456")) == renderBackspaces(6) + boxes)
    }

    @Test func theErrorStatePaintsEveryOutlineRedUntilTheNextKey() {
        var style = redToBlue
        style.errorColor = Color(red: 224, green: 0, blue: 0)
        var renderer = BoxesRenderer(style: style, colorDepth: .trueColor)
        _ = renderer.render(fieldState("98"))
        let red =
            renderBackspaces(6) + Box.filled("9", Box.red) + Box.filled("8", Box.red) + Box.active(Box.red)
            + Box.empty(Box.red) + Box.empty(Box.red) + Box.empty(Box.red) + renderBackspaces(12)
        #expect(renderer.render(fieldState("98", error: true)) == red)
        let cleared =
            renderBackspaces(6) + Box.filled("9", gradient[0]) + Box.filled("8", gradient[1])
            + Box.filled("5", gradient[2])
            + Box.active(gradient[3]) + Box.empty() + Box.empty() + renderBackspaces(9)
        #expect(renderer.render(fieldState("985")) == cleared)
    }

    @Test func maskShowsABlackCircleInFilledBoxes() {
        var renderer = BoxesRenderer(style: redToBlue, colorDepth: .trueColor)
        let output = renderer.render(fieldState("98", length: 3, mask: true))
        #expect(
            output == "Code: " + Box.filled("●", gradient[0]) + Box.filled("●", "38;2;128;0;128")
                + Box.active("38;2;0;0;255") + renderBackspaces(3))
        var screen = ScreenLine()
        screen.write(output)
        #expect(screen.text == "Code: ▕●▏▕●▏▕•▏")
    }

    @Test(arguments: ["_", " "])
    func thePlaceholderIsConfigurable(placeholder: String) {
        var style = redToBlue
        style.placeholder = Character(placeholder)
        var renderer = BoxesRenderer(style: style, colorDepth: .trueColor)
        let expected =
            "Code: " + Box.filled("9", gradient[0]) + Box.active(gradient[1], placeholder)
            + String(repeating: Box.empty(Box.grey, placeholder), count: 4) + renderBackspaces(15)
        #expect(renderer.render(fieldState("9")) == expected)
    }

    @Test func placeholderArgumentsMustBeOnePrintableColumn() {
        #expect(BoxesStyle.placeholder(from: "_") == "_")
        #expect(BoxesStyle.placeholder(from: " ") == " ")
        #expect(BoxesStyle.placeholder(from: "•") == "•")
        #expect(BoxesStyle.placeholder(from: "") == nil)
        #expect(BoxesStyle.placeholder(from: "__") == nil)
        #expect(BoxesStyle.placeholder(from: "\t") == nil)
        #expect(BoxesStyle.placeholder(from: "漢") == nil)
    }

    @Test func theDefaultStyleIsABlueToPurpleGradientWithBulletPlaceholders() {
        var renderer = BoxesRenderer(colorDepth: .trueColor)
        let output = renderer.render(fieldState("", length: 2))
        #expect(output == "Code: " + Box.active("38;2;59;130;246") + Box.empty(Box.grey, "•") + renderBackspaces(6))
        var end = BoxesRenderer(colorDepth: .trueColor)
        #expect(end.render(fieldState("12", length: 2)).contains("38;2;168;85;247m▏"))
    }

    @Test func the256ColourFallbackUsesTheNearestCubeAndGreyIndices() {
        var renderer = BoxesRenderer(style: redToBlue, colorDepth: .ansi256)
        let indices = [196, 161, 89, 54, 56, 21]
        let boxes = zip("98539", indices).map { Box.filled(String($0), "38;5;\($1)") }.joined()
        let expected = "Code: " + boxes + Box.active("38;5;21") + renderBackspaces(3)
        #expect(renderer.render(fieldState("98539")) == expected)
        var empty = BoxesRenderer(style: redToBlue, colorDepth: .ansi256)
        #expect(
            empty.render(fieldState("", length: 2)) == "Code: " + Box.active("38;5;196") + Box.empty("38;5;244")
                + renderBackspaces(6))
    }

    @Test func sixteenColourTerminalsGetTheNearestBasicColour() {
        var renderer = BoxesRenderer(style: redToBlue, colorDepth: .ansi16)
        #expect(
            renderer.render(fieldState("9", length: 2)) == "Code: " + Box.filled("9", "91") + Box.active("34")
                + renderBackspaces(3))
    }

    @Test func withoutColourTheBoxesDrawPlainAndNoEscapeByteIsWritten() {
        var renderer = BoxesRenderer(style: redToBlue, colorDepth: .none)
        #expect(renderer.render(fieldState("", length: 3)) == "Code: ▕•▏▕•▏▕•▏" + renderBackspaces(9))
        // Without a highlight the next box looks the same as before: only the typed box changes.
        #expect(renderer.render(fieldState("9", length: 3)) == "▕9▏")
        // An error cannot be shown without colour: nothing changes on screen, nothing is written.
        #expect(renderer.render(fieldState("9", length: 3, error: true)) == "")
        #expect(renderer.render(fieldState("", length: 3)) == renderBackspaces(3) + "▕•▏" + renderBackspaces(3))
        var all = ""
        for state in [
            fieldState("98", length: 3, mask: true), fieldState("123", length: 3), fieldState("1", length: 3),
        ] {
            all += renderer.render(state)
        }
        all += renderer.redraw(fieldState("12", length: 3)) + renderer.finish()
        #expect(!all.unicodeScalars.contains("\u{1B}"))
        #expect(renderer.redraw(fieldState("1", length: 3)) == "\rCode: ▕1▏▕•▏▕•▏" + renderBackspaces(6))
    }

    /// `--charset any` can type the placeholder itself; plain boxes then look unchanged, but the
    /// cursor must still follow the typed character.
    @Test func typingThePlaceholderCharacterStillMovesTheCursor() {
        var renderer = BoxesRenderer(style: redToBlue, colorDepth: .none)
        _ = renderer.render(fieldState("", length: 3))
        #expect(renderer.render(fieldState("•", length: 3)) == "▕•▏")
        #expect(renderer.render(fieldState("••", length: 3)) == "▕•▏")
        #expect(renderer.render(fieldState("•", length: 3)) == renderBackspaces(3))
        #expect(renderer.render(fieldState("", length: 3)) == renderBackspaces(3))
    }

    @Test func redrawErasesTheLineAndPutsTheCursorBack() {
        var renderer = BoxesRenderer(style: redToBlue, colorDepth: .trueColor)
        _ = renderer.render(fieldState("9", length: 2))
        let expected =
            "\r\u{1B}[2KCode: " + Box.filled("9", gradient[0]) + Box.active("38;2;0;0;255") + renderBackspaces(3)
        #expect(renderer.redraw(fieldState("9", length: 2)) == expected)
        #expect(renderer.render(fieldState("91", length: 2)) == Box.filled("1", "38;2;0;0;255"))
    }

    @Test func aPlainRedrawBlanksWhatAWiderFieldLeftBehind() {
        var renderer = BoxesRenderer(style: redToBlue, colorDepth: .none)
        _ = renderer.render(fieldState("漢漢漢", length: 3))
        #expect(renderer.redraw(fieldState("ab", length: 3)) == "\rCode: ▕a▏▕b▏▕•▏   " + renderBackspaces(6))
    }

    @Test func finishDropsTheHighlightThenEndsTheLine() {
        var renderer = BoxesRenderer(style: redToBlue, colorDepth: .trueColor)
        #expect(renderer.finish() == "")
        _ = renderer.render(fieldState("9", length: 2))
        #expect(renderer.finish() == Box.empty() + renderBackspaces(3) + "\r\n")
        #expect(renderer.finish() == "")
        var full = BoxesRenderer(style: redToBlue, colorDepth: .trueColor)
        _ = full.render(fieldState("91", length: 2))
        #expect(full.finish() == "\r\n")
    }

    @Test func anUnchangedFieldWritesNothing() {
        var renderer = BoxesRenderer(style: redToBlue, colorDepth: .trueColor)
        _ = renderer.render(fieldState("98"))
        #expect(renderer.render(fieldState("98")) == "")
    }
}
