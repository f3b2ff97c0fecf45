import Testing

@testable import OTCPromptBraille
@testable import OTCPromptCore

/// One line of braille for a view, and the window a display of some width shows of it.
@Suite struct BrailleLineTests {
    private let label = "Verification code: "

    private func text(_ window: BrailleWindow) -> String {
        String(window.text.reversed().drop(while: { $0 == " " }).reversed())
    }

    @Test func theLabelTheCharactersAndTheCursorOnTheCellWhereTheNextOneGoes() {
        let line = BrailleLine(SessionView(label: label, field: .characters(["1", "2"]), cursor: 2))
        let window = line.window(start: line.start(width: 40), width: 40)
        #expect(text(window) == "Verification code: 12" && window.cursor == 21 && window.cells.count == 40)
    }

    @Test func aMaskedFieldIsDotsSevenAndEightPerCharacterWithNoCursorToBeTakenForOneMore() {
        let line = BrailleLine(SessionView(label: "Password: ", field: .masked(count: 4), cursor: 4))
        let window = line.window(start: 0, width: 40)
        #expect(text(window) == "Password: \u{28C0}\u{28C0}\u{28C0}\u{28C0}" && window.cursor == nil)
    }

    @Test func aReadbackIsShownInGroupsFromTheFieldsStart() {
        let view = SessionView(
            label: label, field: .characters(Array("985391")), cursor: 6,
            readBack: .groups([["9", "8", "5"], ["3", "9", "1"]]))
        let line = BrailleLine(view)
        #expect(text(line.window(start: line.start(width: 40), width: 40)) == "Verification code: 985 391")
        // Twenty cells: all of the code, with what of the label fits before it.
        #expect(text(line.window(start: line.start(width: 20), width: 20)) == "cation code: 985 391")
        let long = BrailleLine(
            SessionView(
                label: label, field: .characters(Array("9" + String(repeating: "8", count: 29))), cursor: 30,
                readBack: .groups([Array("9" + String(repeating: "8", count: 29))])))
        #expect(text(long.window(start: long.start(width: 20), width: 20)) == "9" + String(repeating: "8", count: 19))
    }

    @Test func newsIsReadFromItsStartEvenWhereTheCursorIsOutOfView() {
        let view = SessionView(
            label: label, field: .characters(Array("123456")), cursor: 6, news: "Code rejected. 2 attempts left.")
        let line = BrailleLine(view)
        let window = line.window(start: line.start(width: 40), width: 40)
        #expect(text(window) == "Code rejected. 2 attempts left. Verifica" && window.cursor == nil)
        #expect(line.start(afterPanning: .right, from: window.start, width: 40) == 18)
    }

    @Test(arguments: [(20, 6, 19), (40, 0, 25), (12, 14, 11)])
    func aNarrowDisplayKeepsTheCursorCellAtItsRightEdge(width: Int, start: Int, cursor: Int) {
        let line = BrailleLine(SessionView(label: label, field: .characters(Array("123456")), cursor: 6))
        let window = line.window(start: line.start(width: width), width: width)
        #expect(window.start == start && window.cursor == cursor)
    }

    @Test func panningMovesAWholeDisplayAndStopsAtTheLinesEnds() {
        let line = BrailleLine(SessionView(label: label, field: .characters(Array("123456")), cursor: 6))
        #expect(line.start(afterPanning: .left, from: 6, width: 20) == 0)
        #expect(line.start(afterPanning: .right, from: 0, width: 20) == 6)
        #expect(line.start(afterPanning: .right, from: 6, width: 20) == 6)
        #expect(line.start(afterPanning: .lineEnd, from: 0, width: 20) == 6)
        #expect(line.start(afterPanning: .lineStart, from: 6, width: 20) == 0)
        #expect(line.start(afterPanning: .focus, from: 0, width: 20) == 6)
    }

    @Test func aNoticeHasNoCursorAndCombiningMarksTakeNoCell() {
        let line = BrailleLine(SessionView(label: "Cafe\u{301} ready.", field: nil))
        #expect(line.cells.count == 11 && line.cursor == nil && !line.showsCursor)
    }
}
