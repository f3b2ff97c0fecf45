import Testing

@testable import OTCPromptCore

/// An unmarked paste that a link split across reads is one paste.
@Suite struct UnmarkedPasteJoinTests {
    /// The reads of `pieces`, `gap` apart, through the decoder, `UnmarkedPaste` and the join, then the
    /// line quiet; what reaches the session.
    static func keys(of pieces: [[UInt8]], gap: Duration = .milliseconds(5)) -> [Key] {
        var decoder = KeyDecoder()
        var join = UnmarkedPasteJoin()
        var time = Duration.seconds(1)
        var keys: [Key] = []
        for piece in pieces {
            keys += join.take(UnmarkedPaste.recognise(decoder.feed(piece), from: piece), from: piece, at: time)
            time += gap
        }
        return keys + join.due(at: time + UnmarkedPasteJoin.window)
    }

    static let sms = Array("Your 2FA code is 123456. Do not share it.".utf8)

    @Test(arguments: [3, 20, 22, sms.count - 1])
    func aPasteSplitAnywhereIsOnePaste(at split: Int) {
        let keys = Self.keys(of: [Array(Self.sms[..<split]), Array(Self.sms[split...])])
        #expect(keys == [.unmarkedPaste("Your 2FA code is 123456. Do not share it.")])
    }

    @Test func aPasteSplitInsideAUTF8CharacterIsOnePasteWithTheCharacter() {
        let sms = Array("Seu código é 654321".utf8)
        let inside = sms.firstIndex(of: 0xC3)! + 1
        #expect(
            Self.keys(of: [Array(sms[..<inside]), Array(sms[inside...])]) == [.unmarkedPaste("Seu código é 654321")])
    }

    @Test func aPasteInManyPiecesEvenOneCharacterLongIsOnePaste() {
        let pieces = stride(from: 0, to: Self.sms.count, by: 7).map {
            Array(Self.sms[$0..<min($0 + 7, Self.sms.count)])
        }
        #expect(Self.keys(of: pieces + [[0x0D]]) == [.unmarkedPaste("Your 2FA code is 123456. Do not share it.\n")])
    }

    @Test func aKeyAfterTheQuietWindowIsTypingAgain() {
        #expect(
            Self.keys(of: [Array("12".utf8), [0x33]], gap: UnmarkedPasteJoin.window) == [
                .unmarkedPaste("12"), .character("3"),
            ])
    }

    @Test(arguments: [[UInt8]([0x7F]), [0x03], [0x1B, 0x5B, 0x41], [0x15]])
    func aKeyThatIsNotTextEndsThePasteAndStaysAKey(key: [UInt8]) {
        let keys = Self.keys(of: [Array("123456".utf8), key])
        #expect(keys.first == .unmarkedPaste("123456"))
        #expect(keys.count == 2)
    }

    @Test func oneKeyPerReadWithNoPasteBeforeItIsUntouched() {
        #expect(Self.keys(of: "985391".map { [$0.asciiValue!] }) == "985391".map { .character($0) })
    }

    @Test func undecodableBytesInAnyPieceAreReportedOnceAfterThePaste() {
        let keys = Self.keys(of: [Array("12".utf8) + [0xFF], [0xFE] + Array("3456".utf8)])
        #expect(keys == [.unmarkedPaste("12  3456"), .undecodable])
    }

    @Test func theDeadlineFollowsTheLastPiece() {
        var join = UnmarkedPasteJoin()
        #expect(join.deadline == nil)
        _ = join.take([.unmarkedPaste("12")], from: Array("12".utf8), at: .seconds(1))
        _ = join.take([.character("3")], from: [0x33], at: .seconds(1) + .milliseconds(60))
        #expect(join.deadline == .seconds(1) + .milliseconds(60) + UnmarkedPasteJoin.window)
        #expect(join.due(at: .seconds(1) + .milliseconds(100)) == [])
        #expect(join.release() == [.unmarkedPaste("123")])
        #expect(!join.isHolding)
    }
}
