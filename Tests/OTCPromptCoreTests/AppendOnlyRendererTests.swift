import Testing

@testable import OTCPromptCore

@Suite struct AppendOnlyRendererTests {
    @Test func firstDrawAndAppendsAreJustText() {
        var renderer = AppendOnlyRenderer()
        #expect(renderer.render(snapshot("")) == "Code: ")
        #expect(renderer.render(snapshot("9")) == "9")
        #expect(renderer.render(snapshot("985")) == "85")
    }

    @Test func aDeleteStartsANewLineWithTheFieldAsItNowIs() {
        var renderer = AppendOnlyRenderer()
        _ = renderer.render(snapshot("985"))
        #expect(renderer.render(snapshot("98")) == "\r\nCode: 98")
        #expect(renderer.render(snapshot("981")) == "1")
    }

    @Test func clearAndReplaceStartNewLines() {
        var renderer = AppendOnlyRenderer()
        _ = renderer.render(snapshot("985"))
        #expect(renderer.render(snapshot("")) == "\r\nCode: ")
        _ = renderer.render(snapshot("98"))
        #expect(renderer.render(snapshot("123456")) == "\r\nCode: 123456")
    }

    @Test func maskShowsAsterisks() {
        var renderer = AppendOnlyRenderer()
        #expect(renderer.render(snapshot("98", mask: true)) == "Code: **")
        #expect(renderer.render(snapshot("985", mask: true)) == "*")
        #expect(renderer.render(snapshot("98", mask: true)) == "\r\nCode: **")
    }

    @Test func theErrorStateShowsNothing() {
        var renderer = AppendOnlyRenderer()
        _ = renderer.render(snapshot("98"))
        #expect(renderer.render(snapshot("98", error: true)) == "")
    }

    @Test func redrawStartsAFreshLineOnlyWhenSomethingIsDrawn() {
        var renderer = AppendOnlyRenderer()
        #expect(renderer.redraw(snapshot("9")) == "Code: 9")
        #expect(renderer.redraw(snapshot("9")) == "\r\nCode: 9")
    }

    @Test func finishEndsTheLine() {
        var renderer = AppendOnlyRenderer()
        #expect(renderer.finish() == "")
        _ = renderer.render(snapshot("9"))
        #expect(renderer.finish() == "\r\n")
        #expect(renderer.finish() == "")
    }

    @Test func nothingButPrintableTextAndCRLFIsEverWritten() {
        var renderer = AppendOnlyRenderer()
        let states = [
            snapshot("", label: "Co\u{1B}[31mde"), snapshot("9"), snapshot("98", error: true), snapshot("9"),
            snapshot(""), snapshot("123456"), snapshot("1", mask: true), snapshot("12", mask: true),
        ]
        var output = states.map { renderer.render($0) }.joined()
        output += renderer.redraw(snapshot("12")) + renderer.finish()
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
        #expect(renderer.render(snapshot("")) == "")
        #expect(renderer.render(snapshot("98", error: true)) == "")
        #expect(renderer.redraw(snapshot("98")) == "")
        #expect(renderer.finish() == "")
    }
}
