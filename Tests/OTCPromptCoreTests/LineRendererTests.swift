import Testing

@testable import OTCPromptCore

@Suite struct LineRendererTests {
    @Test func firstDrawShowsTheLabelAndTheCharacters() {
        var empty = LineRenderer()
        #expect(empty.render(snapshot("")) == "Code: ")
        var partial = LineRenderer()
        #expect(partial.render(snapshot("98")) == "Code: 98")
    }

    @Test func aTypedCharacterCostsExactlyItsEcho() {
        var renderer = LineRenderer()
        _ = renderer.render(snapshot(""))
        #expect(renderer.render(snapshot("9")) == "9")
        #expect(renderer.render(snapshot("98")) == "8")
    }

    @Test func anAppendingPasteEchoesOnlyTheNewCharacters() {
        var renderer = LineRenderer()
        _ = renderer.render(snapshot("9"))
        #expect(renderer.render(snapshot("98539")) == "8539")
    }

    @Test func aDeleteCostsExactlyBackspaceSpaceBackspace() {
        var renderer = LineRenderer()
        _ = renderer.render(snapshot("985"))
        #expect(renderer.render(snapshot("98")) == "\u{8} \u{8}")
    }

    @Test func clearingErasesEachCharacterWithoutRewritingTheLabel() {
        var renderer = LineRenderer()
        _ = renderer.render(snapshot("985"))
        #expect(renderer.render(snapshot("")) == "\u{8} \u{8}\u{8} \u{8}\u{8} \u{8}")
    }

    @Test func aPasteThatReplacesTheContentRewritesTheLine() {
        var renderer = LineRenderer()
        _ = renderer.render(snapshot("985"))
        #expect(renderer.render(snapshot("123456")) == "\r\u{1B}[KCode: 123456")
        #expect(renderer.render(snapshot("7")) == "\r\u{1B}[KCode: 7")
    }

    @Test func anUnchangedFieldWritesNothing() {
        var renderer = LineRenderer()
        _ = renderer.render(snapshot("98"))
        #expect(renderer.render(snapshot("98")) == "")
    }

    @Test func maskShowsAnAsteriskPerCharacterAndNeverTheCharacters() {
        var renderer = LineRenderer()
        #expect(renderer.render(snapshot("98", mask: true)) == "Code: **")
        #expect(renderer.render(snapshot("985", mask: true)) == "*")
        #expect(renderer.render(snapshot("98", mask: true)) == "\u{8} \u{8}")
        // A same-length replacement looks the same on screen: nothing to write, nothing leaked.
        #expect(renderer.render(snapshot("12", mask: true)) == "")
        #expect(renderer.redraw(snapshot("12", mask: true)) == "\r\u{1B}[2KCode: **")
    }

    @Test func theErrorStateWritesNothingSoTheFieldIsNotReadAgain() {
        var renderer = LineRenderer()
        _ = renderer.render(snapshot("98"))
        #expect(renderer.render(snapshot("98", error: true)) == "")
        #expect(renderer.render(snapshot("985", error: false)) == "5")
    }

    @Test func redrawErasesTheLineAndDrawsItWhole() {
        var renderer = LineRenderer()
        _ = renderer.render(snapshot("98"))
        #expect(renderer.redraw(snapshot("98")) == "\r\u{1B}[2KCode: 98")
        #expect(renderer.render(snapshot("985")) == "5")
    }

    @Test func finishEndsTheLineOnceAndTheNextRenderStartsAfresh() {
        var renderer = LineRenderer()
        #expect(renderer.finish() == "")
        _ = renderer.render(snapshot("98"))
        #expect(renderer.finish() == "\r\n")
        #expect(renderer.finish() == "")
        #expect(renderer.render(snapshot("1")) == "Code: 1")
    }

    @Test func aLabelEndingInAColonOrQuestionMarkGetsNoSecondColon() {
        var password = LineRenderer()
        #expect(password.render(snapshot("", label: "Password: ")) == "Password: ")
        var question = LineRenderer()
        #expect(question.render(snapshot("", label: "Your code?")) == "Your code? ")
        var unlabeled = LineRenderer()
        #expect(unlabeled.render(snapshot("1", label: "")) == "1")
    }

    @Test func controlCharactersInTheLabelNeverReachTheTerminal() {
        var renderer = LineRenderer()
        #expect(renderer.render(snapshot("", label: "Co\u{1B}[2Jde\u{7}")) == "Co[2Jde: ")
    }

    @Test func deletingAWideCharacterErasesBothColumns() {
        var renderer = LineRenderer()
        _ = renderer.render(snapshot("a漢"))
        #expect(renderer.render(snapshot("a")) == "\u{8}\u{8}  \u{8}\u{8}")
    }
}
