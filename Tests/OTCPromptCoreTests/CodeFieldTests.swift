import Testing

@testable import OTCPromptCore

@Suite struct CodeFieldTests {
    @Test func appendsDigitsUntilFull() {
        var field = CodeField(length: 3, charset: .digits)
        #expect(field.isEmpty && !field.isFull && field.remaining == 3)
        #expect(field.append("9") == .accepted("9"))
        #expect(field.append("8") == .accepted("8"))
        #expect(!field.isFull && !field.isComplete)
        #expect(field.append("5") == .accepted("5"))
        #expect(field.isFull && field.isComplete && field.remaining == 0)
        #expect(field.append("3") == .full)
        #expect(field.value == "985")
        #expect(field.count == 3)
    }

    @Test func rejectsWhatTheCharsetDoesNotAllowAndStaysUnchanged() {
        var field = CodeField(length: 6, charset: .digits)
        field.append("1")
        for character: Character in ["a", "Z", "-", " ", "?", "é", "\u{7}"] {
            #expect(field.append(character) == .notAllowed(character))
        }
        #expect(field.value == "1")
    }

    @Test func aCharacterNotAllowedIsReportedAsSuchEvenWhenFull() {
        var field = CodeField(length: 1, charset: .digits)
        field.append("1")
        #expect(field.append("x") == .notAllowed("x"))
        #expect(field.append("2") == .full)
    }

    @Test func storesTheCharsetsFormFullWidthFoldedAndUpperCased() {
        var digits = CodeField(length: 6, charset: .digits)
        #expect(digits.append("\u{FF17}") == .accepted("7"))
        var alnum = CodeField(length: 6, charset: .alnum)
        #expect(alnum.append("g") == .accepted("G"))
        #expect(alnum.append("\u{FF41}") == .accepted("A"))
        #expect(alnum.append("1") == .accepted("1"))
        #expect(alnum.value == "GA1")
    }

    @Test func appendContentsOfStopsWhenFullAndSkipsWhatIsNotAllowed() {
        var field = CodeField(length: 4, charset: .digits)
        field.append("1")
        let accepted = field.append(contentsOf: "2x34567")
        #expect(accepted == ["2", "3", "4"])
        #expect(field.value == "1234")
        #expect(field.append(contentsOf: "9").isEmpty)
    }

    @Test func deleteLastRemovesFromTheEnd() {
        var field = CodeField(length: 6, charset: .digits)
        field.append(contentsOf: "985")
        #expect(field.deleteLast() == "5")
        #expect(field.value == "98")
        #expect(field.deleteLast() == "8")
        #expect(field.deleteLast() == "9")
        #expect(field.deleteLast() == nil)
        #expect(field.isEmpty)
    }

    @Test func clearReturnsHowManyItHeld() {
        var field = CodeField(length: 6, charset: .digits)
        field.append(contentsOf: "9853")
        #expect(field.clear() == 4)
        #expect(field.isEmpty && field.value.isEmpty)
        #expect(field.clear() == 0)
    }

    @Test func replaceTakesTheNewContentWhole() {
        var field = CodeField(length: 6, charset: .digits)
        field.append(contentsOf: "11")
        #expect(field.replace(with: "985391") == Array("985391"))
        #expect(field.value == "985391")
        #expect(field.replace(with: "12345678") == Array("123456"))
    }

    @Test func wipeEmptiesTheFieldAndItCanBeUsedAgain() {
        var field = CodeField(length: 6, charset: .digits)
        field.append(contentsOf: "985391")
        field.wipe()
        #expect(field.isEmpty && field.characters.isEmpty)
        field.append(contentsOf: "12")
        #expect(field.value == "12")
    }

    /// The secret must not stay in the array's spare capacity: after deletes and a wipe, the
    /// storage the field reserved holds none of the code's bytes. Reads the reserved memory as
    /// raw bytes (a single ASCII character is stored inline in a `Character`).
    @Test func wipeAndDeleteOverwriteTheStorage() {
        var field = CodeField(length: 6, charset: .digits)
        field.append(contentsOf: "985391")
        field.deleteLast()
        field.deleteLast()
        #expect(!reservedBytes(of: field).contains(0x31))  // the deleted "1"s
        field.wipe()
        let bytes = reservedBytes(of: field)
        #expect(bytes.count == 6 * MemoryLayout<Character>.stride)
        #expect(!bytes.contains { (0x30...0x39).contains($0) })
    }

    private func reservedBytes(of field: CodeField) -> [UInt8] {
        field.characters.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, field.characters.capacity >= 6 else { return [] }
            let raw = UnsafeRawBufferPointer(start: UnsafeRawPointer(base), count: 6 * MemoryLayout<Character>.stride)
            return Array(raw)
        }
    }

    @Test func freeTextLengthIsAMaximum() {
        var field = CodeField(length: 4, charset: .any, kind: .freeText)
        #expect(!field.isComplete)
        #expect(field.append("p") == .accepted("p"))
        #expect(field.isComplete && !field.isFull)
        field.append(contentsOf: "a?s")
        #expect(field.isFull && field.value == "pa?s")
        #expect(field.append("x") == .full)
    }

    @Test func lengthIsAtLeastOne() {
        #expect(CodeField(length: 0, charset: .digits).length == 1)
    }
}
