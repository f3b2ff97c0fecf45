import Testing

@testable import OTCPromptCore

@Suite struct LineRendererTests {
    @Test func firstDrawShowsTheLabelAndTheCharacters() {
        var empty = LineRenderer()
        #expect(empty.render(fieldState("")) == "Code: ")
        var partial = LineRenderer()
        #expect(partial.render(fieldState("98")) == "Code: 98")
    }

    @Test func aTypedCharacterCostsExactlyItsEcho() {
        var renderer = LineRenderer()
        _ = renderer.render(fieldState(""))
        #expect(renderer.render(fieldState("9")) == "9")
        #expect(renderer.render(fieldState("98")) == "8")
    }

    @Test func anAppendingPasteEchoesOnlyTheNewCharacters() {
        var renderer = LineRenderer()
        _ = renderer.render(fieldState("9"))
        #expect(renderer.render(fieldState("98539")) == "8539")
    }

    @Test func aDeleteCostsExactlyBackspaceSpaceBackspace() {
        var renderer = LineRenderer()
        _ = renderer.render(fieldState("985"))
        #expect(renderer.render(fieldState("98")) == "\u{8} \u{8}")
    }

    @Test func clearingErasesEachCharacterWithoutRewritingTheLabel() {
        var renderer = LineRenderer()
        _ = renderer.render(fieldState("985"))
        #expect(renderer.render(fieldState("")) == "\u{8} \u{8}\u{8} \u{8}\u{8} \u{8}")
    }

    @Test func aPasteThatReplacesTheContentRewritesTheLine() {
        var renderer = LineRenderer()
        _ = renderer.render(fieldState("985"))
        #expect(renderer.render(fieldState("123456")) == "\r\u{1B}[KCode: 123456")
        #expect(renderer.render(fieldState("7")) == "\r\u{1B}[KCode: 7")
    }

    @Test func anUnchangedFieldWritesNothing() {
        var renderer = LineRenderer()
        _ = renderer.render(fieldState("98"))
        #expect(renderer.render(fieldState("98")) == "")
    }

    @Test func maskShowsAnAsteriskPerCharacterAndNeverTheCharacters() {
        var renderer = LineRenderer()
        #expect(renderer.render(fieldState("98", mask: true)) == "Code: **")
        #expect(renderer.render(fieldState("985", mask: true)) == "*")
        #expect(renderer.render(fieldState("98", mask: true)) == "\u{8} \u{8}")
        // A same-length replacement looks the same on screen: nothing to write, nothing leaked.
        #expect(renderer.render(fieldState("12", mask: true)) == "")
        #expect(renderer.redraw(fieldState("12", mask: true)) == "\r\u{1B}[2KCode: **")
    }

    @Test func theErrorStateWritesNothingSoTheFieldIsNotReadAgain() {
        var renderer = LineRenderer()
        _ = renderer.render(fieldState("98"))
        #expect(renderer.render(fieldState("98", error: true)) == "")
        #expect(renderer.render(fieldState("985", error: false)) == "5")
    }

    @Test func redrawErasesTheLineAndDrawsItWhole() {
        var renderer = LineRenderer()
        _ = renderer.render(fieldState("98"))
        #expect(renderer.redraw(fieldState("98")) == "\r\u{1B}[2KCode: 98")
        #expect(renderer.render(fieldState("985")) == "5")
    }

    @Test func finishEndsTheLineOnceAndTheNextRenderStartsAfresh() {
        var renderer = LineRenderer()
        #expect(renderer.finish() == "")
        _ = renderer.render(fieldState("98"))
        #expect(renderer.finish() == "\r\n")
        #expect(renderer.finish() == "")
        #expect(renderer.render(fieldState("1")) == "Code: 1")
    }

    @Test func aLabelEndingInAColonOrQuestionMarkGetsNoSecondColon() {
        var password = LineRenderer()
        #expect(password.render(fieldState("", label: "Password: ")) == "Password: ")
        var question = LineRenderer()
        #expect(question.render(fieldState("", label: "Your code?")) == "Your code? ")
        var unlabeled = LineRenderer()
        #expect(unlabeled.render(fieldState("1", label: "")) == "1")
    }

    @Test func controlCharactersInTheLabelNeverReachTheTerminal() {
        var renderer = LineRenderer()
        // Shown escaped, as every text from outside is (`UntrustedText`), so the oddity is seen and heard.
        #expect(renderer.render(fieldState("", label: "Co\u{1B}[2Jde\u{7}\u{202E}")) == "Co\\x1B[2Jde\\x07<U+202E>: ")
    }

    @Test func deletingAWideCharacterErasesBothColumns() {
        var renderer = LineRenderer()
        _ = renderer.render(fieldState("a漢"))
        #expect(renderer.render(fieldState("a")) == "\u{8}\u{8}  \u{8}\u{8}")
    }
}
