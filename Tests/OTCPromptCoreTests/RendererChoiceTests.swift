import Testing

@testable import OTCPromptCore

@Suite struct RendererChoiceTests {
    private let colourful = TerminalCapabilities(isDumb: false, colorDepth: .trueColor, isUTF8: true)
    private let noColor = TerminalCapabilities(isDumb: false, colorDepth: .none, isUTF8: true)
    private let dumb = TerminalCapabilities(isDumb: true, colorDepth: .none, isUTF8: true)
    private let console = TerminalCapabilities(isDumb: false, colorDepth: .ansi16, isUTF8: true)

    @Test func textSpeechAlwaysGetsTheNullRenderer() {
        for style in [nil, FieldStyle.line, .boxes] {
            for capabilities in [colourful, noColor, dumb] {
                #expect(choosePresentation(style: style, speechIsText: true, capabilities: capabilities) == .null)
            }
        }
    }

    @Test func aDumbTerminalIsAppendOnlyWhateverTheStyle() {
        for style in [nil, FieldStyle.line, .boxes] {
            #expect(choosePresentation(style: style, speechIsText: false, capabilities: dumb) == .appendOnly)
        }
    }

    @Test func theDefaultIsBoxesOnlyWhereTheyDrawWell() {
        #expect(choosePresentation(style: nil, speechIsText: false, capabilities: colourful) == .boxes)
        #expect(choosePresentation(style: nil, speechIsText: false, capabilities: noColor) == .line)
        #expect(choosePresentation(style: nil, speechIsText: false, capabilities: console) == .line)
    }

    @Test func anExplicitStyleWinsOnACapableTerminal() {
        #expect(choosePresentation(style: .line, speechIsText: false, capabilities: colourful) == .line)
        #expect(choosePresentation(style: .boxes, speechIsText: false, capabilities: noColor) == .boxes)
        #expect(choosePresentation(style: .boxes, speechIsText: false, capabilities: console) == .boxes)
    }

    @Test func makeRendererBuildsTheChosenRendererWithTheTerminalsColourDepth() {
        let boxes = BoxesStyle()
        #expect(makeRenderer(style: nil, speechIsText: true, capabilities: colourful, boxes: boxes) is NullRenderer)
        #expect(
            makeRenderer(style: .boxes, speechIsText: false, capabilities: dumb, boxes: boxes) is AppendOnlyRenderer)
        let line = makeRenderer(style: nil, speechIsText: false, capabilities: noColor, boxes: boxes)
        #expect((line as? FittingRenderer)?.inlineRenderer is LineRenderer)
        let chosen = makeRenderer(style: .boxes, speechIsText: false, capabilities: noColor, boxes: boxes)
        #expect(((chosen as? FittingRenderer)?.inlineRenderer as? BoxesRenderer)?.colorDepth == ColorDepth.none)
        var renderer = makeRenderer(style: nil, speechIsText: false, capabilities: colourful, boxes: boxes)
        #expect(
            renderer.render(fieldState("", length: 1))
                == "Code: \u{1B}[1;38;2;59;130;246m▕\u{1B}[7m•\u{1B}[27m▏\u{1B}[22;39m\u{8}\u{8}\u{8}")
    }
}
