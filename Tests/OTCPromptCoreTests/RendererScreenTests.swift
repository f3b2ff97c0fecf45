import Testing

@testable import OTCPromptCore

/// A field state with short defaults, so each renderer test states only what it is about.
func fieldState(
    _ characters: String, length: Int = 6, label: String = "Code", mask: Bool = false, error: Bool = false
) -> FieldSnapshot {
    FieldSnapshot(label: label, characters: Array(characters), length: length, mask: mask, isError: error)
}

func renderBackspaces(_ count: Int) -> String { String(repeating: "\u{8}", count: count) }

/// One terminal line as a VT100-style terminal keeps it: a character and its attributes per
/// column, the cursor, the current attributes. Understands exactly what the renderers may write
/// (printable text, BS, CR, LF, SGR, EL) and records anything else as a failure.
struct ScreenLine: Equatable {
    struct Attributes: Equatable {
        var foreground: String?
        var bold = false
        var reverse = false
    }
    struct Cell: Equatable {
        var character: Unicode.Scalar
        var attributes: Attributes
    }

    var cells: [Cell] = []
    var cursor = 0
    var attributes = Attributes()
    var lineFeeds = 0
    var unknown: [String] = []

    var text: String { String(String.UnicodeScalarView(cells.map(\.character))) }

    mutating func write(_ output: String) {
        var scalars = output.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            switch scalar {
            case "\u{8}": cursor = max(cursor - 1, 0)
            case "\r": cursor = 0
            case "\n": lineFeeds += 1
            case "\u{1B}":
                guard scalars.next() == "[" else {
                    unknown.append("ESC")
                    continue
                }
                var parameters = ""
                while let next = scalars.next() {
                    if next.properties.generalCategory == .uppercaseLetter
                        || next.properties.generalCategory == .lowercaseLetter
                    {
                        apply(parameters, final: next)
                        break
                    }
                    parameters.unicodeScalars.append(next)
                }
            default:
                if scalar.value < 0x20 {
                    unknown.append("control \(scalar.value)")
                    continue
                }
                // A wide character covers a second column, kept as a NUL cell.
                let columns = Character(scalar).terminalColumns
                for (offset, character) in [scalar, "\0"].prefix(columns).enumerated() {
                    let cell = Cell(character: character, attributes: attributes)
                    if cursor + offset < cells.count { cells[cursor + offset] = cell } else { cells.append(cell) }
                }
                cursor += columns
            }
        }
    }

    private mutating func apply(_ parameters: String, final: Unicode.Scalar) {
        switch final {
        case "K" where parameters.isEmpty: cells.removeSubrange(min(cursor, cells.count)...)
        case "K" where parameters == "2": cells.removeAll()
        case "m": applySGR(parameters.split(separator: ";", omittingEmptySubsequences: false).map(String.init))
        default: unknown.append("CSI \(parameters)\(final)")
        }
    }

    private mutating func applySGR(_ codes: [String]) {
        var index = 0
        while index < codes.count {
            switch codes[index] {
            case "", "0": attributes = Attributes()
            case "1": attributes.bold = true
            case "22": attributes.bold = false
            case "7": attributes.reverse = true
            case "27": attributes.reverse = false
            case "39": attributes.foreground = nil
            case "38" where codes.count > index + 1 && codes[index + 1] == "5":
                attributes.foreground = codes[index...index + 2].joined(separator: ";")
                index += 2
            case "38" where codes.count > index + 4 && codes[index + 1] == "2":
                attributes.foreground = codes[index...index + 4].joined(separator: ";")
                index += 4
            case let code where (30...37).contains(Int(code) ?? 0) || (90...97).contains(Int(code) ?? 0):
                attributes.foreground = code
            default: unknown.append("SGR \(codes[index])")
            }
            index += 1
        }
    }
}

/// A walk through a session: typing, a rejected key, deleting, a replacing paste, clearing.
private let session: [FieldSnapshot] = [
    fieldState(""), fieldState("9"), fieldState("98"), fieldState("98", error: true), fieldState("985"),
    fieldState("98"),
    fieldState("9"), fieldState("123456"), fieldState("123456", error: true), fieldState("12345"), fieldState(""),
    fieldState("7"), fieldState("", error: true), fieldState("4"), fieldState("43"),
]

@Suite struct RendererScreenTests {
    /// Whatever was drawn before, the screen after each change must be exactly what a fresh draw
    /// of that state shows, with the cursor right after the last typed character's box and no
    /// attribute left switched on.
    @Test(arguments: ColorDepth.allCases, [false, true])
    func boxesUpdatesLeaveTheSameScreenAsAFreshDraw(depth: ColorDepth, mask: Bool) {
        var renderer = BoxesRenderer(colorDepth: depth)
        var screen = ScreenLine()
        for var state in session {
            state.mask = mask
            screen.write(renderer.render(state))
            var fresh = BoxesRenderer(colorDepth: depth)
            var expected = ScreenLine()
            expected.write(fresh.render(state))
            #expect(screen.cells == expected.cells)
            #expect(screen.cursor == "Code: ".count + 3 * state.characters.count)
            #expect(screen.attributes == ScreenLine.Attributes())
            #expect(screen.unknown.isEmpty)
        }
        screen.write(renderer.redraw(fieldState("43")))
        #expect(screen.cursor == "Code: ".count + 6)
        screen.write(renderer.finish())
        #expect(screen.lineFeeds == 1)
        #expect(screen.text == "Code: ▕4▏▕3▏▕•▏▕•▏▕•▏▕•▏")
        #expect(screen.cells.allSatisfy { !$0.attributes.bold && !$0.attributes.reverse })
    }

    /// Every change between any two states, at every colour depth, ends on the fresh screen.
    @Test(arguments: ColorDepth.allCases)
    func boxesGoFromAnyStateToAnyOther(depth: ColorDepth) {
        let states = [
            fieldState(""), fieldState("", error: true), fieldState("9"), fieldState("•"),
            fieldState("••", error: true),
            fieldState("98", mask: true), fieldState("985391"), fieldState("985391", error: true), fieldState("12345"),
            fieldState("7•", mask: true),
        ]
        for from in states {
            for to in states {
                var renderer = BoxesRenderer(colorDepth: depth)
                var screen = ScreenLine()
                screen.write(renderer.render(from))
                screen.write(renderer.render(to))
                var fresh = BoxesRenderer(colorDepth: depth)
                var expected = ScreenLine()
                expected.write(fresh.render(to))
                #expect(screen == expected, "\(from.characters) → \(to.characters) at \(depth)")
            }
        }
    }

    @Test func boxesShowTheStateAsText() {
        var renderer = BoxesRenderer(colorDepth: .trueColor)
        var screen = ScreenLine()
        screen.write(renderer.render(fieldState("98")))
        #expect(screen.text == "Code: ▕9▏▕8▏▕•▏▕•▏▕•▏▕•▏")
        screen.write(renderer.render(fieldState("98", mask: true)))
        #expect(screen.text == "Code: ▕●▏▕●▏▕•▏▕•▏▕•▏▕•▏")
        // Only the active box is highlighted.
        let highlighted = screen.cells.indices.filter { screen.cells[$0].attributes.reverse }
        #expect(highlighted == ["Code: ".count + 7])
    }

    /// Wide characters (`--charset any`) make boxes wider; when they go, the leftover columns
    /// are blanked and the cursor still lands right after the last typed box.
    @Test func boxesAroundWideCharactersShrinkCleanly() {
        var renderer = BoxesRenderer(colorDepth: .trueColor)
        var screen = ScreenLine()
        let states = [
            fieldState("a漢", length: 3), fieldState("a", length: 3), fieldState("漢漢漢", length: 3),
            fieldState("ab", length: 3),
        ]
        for state in states {
            screen.write(renderer.render(state))
            var fresh = BoxesRenderer(colorDepth: .trueColor)
            var expected = ScreenLine()
            expected.write(fresh.render(state))
            #expect(Array(screen.cells.prefix(expected.cells.count)) == expected.cells)
            #expect(
                screen.cells.dropFirst(expected.cells.count).allSatisfy {
                    $0.character == " " && $0.attributes == ScreenLine.Attributes()
                })
            let typedColumns = state.characters.reduce(0) { $0 + 2 + $1.terminalColumns }
            #expect(screen.cursor == "Code: ".count + typedColumns)
        }
        #expect(screen.text == "Code: ▕a▏▕b▏▕•▏   ")
    }

    @Test func theLineRendererKeepsTheScreenAndCursorInStep() {
        var renderer = LineRenderer()
        var screen = ScreenLine()
        for state in session {
            screen.write(renderer.render(state))
            let shown = String(state.characters)
            #expect(screen.text.trimmingSuffixSpaces() == ("Code: " + shown).trimmingSuffixSpaces())
            #expect(screen.cursor == "Code: ".count + shown.count)
            #expect(screen.unknown.isEmpty)
        }
    }
}

extension String {
    fileprivate func trimmingSuffixSpaces() -> String {
        var result = self
        while result.last == " " { result.removeLast() }
        return result
    }
}
