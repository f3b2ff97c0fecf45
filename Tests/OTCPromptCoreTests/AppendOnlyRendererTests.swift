import Testing

@testable import OTCPromptCore

@Suite struct AppendOnlyRendererTests {
    @Test func firstDrawAndAppendsAreJustText() {
        var renderer = AppendOnlyRenderer()
        #expect(renderer.render(fieldState("")) == "Code: ")
        #expect(renderer.render(fieldState("9")) == "9")
        #expect(renderer.render(fieldState("985")) == "85")
    }

    @Test func aDeleteStartsANewLineWithTheFieldAsItNowIs() {
        var renderer = AppendOnlyRenderer()
        _ = renderer.render(fieldState("985"))
        #expect(renderer.render(fieldState("98")) == "\r\nCode: 98")
        #expect(renderer.render(fieldState("981")) == "1")
    }

    @Test func clearAndReplaceStartNewLines() {
        var renderer = AppendOnlyRenderer()
        _ = renderer.render(fieldState("985"))
        #expect(renderer.render(fieldState("")) == "\r\nCode: ")
        _ = renderer.render(fieldState("98"))
        #expect(renderer.render(fieldState("123456")) == "\r\nCode: 123456")
    }

    @Test func maskShowsAsterisks() {
        var renderer = AppendOnlyRenderer()
        #expect(renderer.render(fieldState("98", mask: true)) == "Code: **")
        #expect(renderer.render(fieldState("985", mask: true)) == "*")
        #expect(renderer.render(fieldState("98", mask: true)) == "\r\nCode: **")
    }

    @Test func theErrorStateShowsNothing() {
        var renderer = AppendOnlyRenderer()
        _ = renderer.render(fieldState("98"))
        #expect(renderer.render(fieldState("98", error: true)) == "")
    }

    @Test func redrawStartsAFreshLineOnlyWhenSomethingIsDrawn() {
        var renderer = AppendOnlyRenderer()
        #expect(renderer.redraw(fieldState("9")) == "Code: 9")
        #expect(renderer.redraw(fieldState("9")) == "\r\nCode: 9")
    }

    @Test func finishEndsTheLine() {
        var renderer = AppendOnlyRenderer()
        #expect(renderer.finish() == "")
        _ = renderer.render(fieldState("9"))
        #expect(renderer.finish() == "\r\n")
        #expect(renderer.finish() == "")
    }

    @Test func nothingButPrintableTextAndCRLFIsEverWritten() {
        var renderer = AppendOnlyRenderer()
        let states = [
            fieldState("", label: "Co\u{1B}[31mde"), fieldState("9"), fieldState("98", error: true), fieldState("9"),
            fieldState(""), fieldState("123456"), fieldState("1", mask: true), fieldState("12", mask: true),
        ]
        var output = states.map { renderer.render($0) }.joined()
        output += renderer.redraw(fieldState("12")) + renderer.finish()
        let scalars = Array(output.unicodeScalars)
        #expect(!scalars.contains("\u{1B}"))
        #expect(!scalars.contains("\u{8}"))
        for (index, scalar) in scalars.enumerated() where scalar == "\r" {
            #expect(index + 1 < scalars.count && scalars[index + 1] == "\n")
        }
        #expect(scalars.allSatisfy { $0 == "\r" || $0 == "\n" || $0.value >= 0x20 })
    }
}

@Suite struct NullRendererTests {
    @Test func drawsNothingEver() {
        var renderer = NullRenderer()
        #expect(renderer.render(fieldState("")) == "")
        #expect(renderer.render(fieldState("98", error: true)) == "")
        #expect(renderer.redraw(fieldState("98")) == "")
        #expect(renderer.finish() == "")
    }
}
