import OTCPromptCore
import Testing

@Suite struct SecretBytesTests {
    private func allZero(_ secret: SecretBytes) -> Bool {
        secret.withStorage { $0.allSatisfy { $0 == 0 } }
    }

    @Test func theFieldKeepsItsCharactersAsUTF8InOneBufferThroughEveryEdit() {
        var field = CodeField(length: 8, charset: .any, kind: .freeText)
        field.append(contentsOf: "aé€😀")
        field.deleteLast()
        field.append("z")
        #expect(field.takeSecret().text == "aé€z")
        field.append(contentsOf: "123")
        field.replace(with: "xy")
        #expect(field.takeSecret().text == "xy")
    }

    @Test func aTakenSecretLeavesTheFieldEmptyAndIsNotWipedWithIt() {
        var field = CodeField(length: 6, charset: .digits)
        field.append(contentsOf: "985391")
        let secret = field.takeSecret()
        field.wipe()
        #expect(secret.text == "985391")
        #expect(field.takeSecret().isEmpty)
    }

    @Test func wipingOverwritesEveryByteOfTheBuffer() {
        let secret = SecretBytes(copying: "correct horse")
        secret.wipe()
        #expect(secret.isEmpty)
        #expect(allZero(secret))
    }

    @Test func aDeletedCharactersBytesAreOverwritten() {
        var field = CodeField(length: 4, charset: .any, kind: .freeText)
        field.append(contentsOf: "a€")
        field.deleteLast()
        let secret = field.takeSecret()
        #expect(secret.text == "a")
        #expect(secret.withStorage { Array($0[1..<4]) } == [0, 0, 0])
    }

    @Test func aFieldCopyIsNotChangedByEditsToTheOriginal() {
        var field = CodeField(length: 6, charset: .digits)
        field.append(contentsOf: "123")
        var copy = field
        field.append("4")
        field.clear()
        #expect(copy.takeSecret().text == "123")
    }

    @Test func charactersLongerThanFourBytesEachStillFitTheBufferGrows() {
        var field = CodeField(length: 3, charset: .any, kind: .freeText)
        let marked = "e\u{301}\u{302}\u{303}\u{304}\u{305}\u{306}\u{307}\u{308}"  // 17 bytes, one character
        field.append(contentsOf: [Character(marked), Character(marked), Character(marked)])
        #expect(field.count == 3)
        #expect(field.takeSecret().text == marked + marked + marked)
    }

    @Test(arguments: [
        ("985391", "985391", true), ("985391", "985392", false), ("98539", "985391", false),
        ("", "", true), ("a", "", false),
    ])
    func matchingComparesContentAndLength(first: String, second: String, same: Bool) {
        #expect(SecretBytes(copying: first).matches(SecretBytes(copying: second)) == same)
        #expect(SecretBytes(copying: second).matches(SecretBytes(copying: first)) == same)
    }

    @Test(arguments: [
        (TerminalEncoding.utf8, "aé€", Array("aé€\n".utf8)),
        (.latin1, "aé", [0x61, 0xE9, 0x0A]),
        (.latin9, "a€", [0x61, 0xA4, 0x0A]),
        (.latin1, "a€", [0x61, 0x3F, 0x0A]),
    ])
    func theSecretIsWrittenInTheTerminalsEncodingWithALineFeed(
        encoding: TerminalEncoding, text: String, expected: [UInt8]
    ) {
        let secret = SecretBytes(copying: text)
        var output = [UInt8](repeating: 0xFF, count: secret.encodedCapacity)
        let count = output.withUnsafeMutableBufferPointer { secret.write(as: encoding, into: $0) }
        #expect(Array(output[..<count]) == expected)
    }

    @Test func aSecretNeverDescribesItsContent() {
        #expect("\(SecretBytes(copying: "985391"))" == "SecretBytes(6 bytes)")
    }
}
