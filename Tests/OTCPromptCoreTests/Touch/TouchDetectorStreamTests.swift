import Testing

@testable import OTCPromptCore

@Suite struct TouchDetectorStreamTests {
    @Test func eachOfTheDetectorsSixMessagesIsReadAsWhatItSays() {
        var stream = TouchDetectorStream()
        let bytes = Array("U2F_1U2F_0GPG_1GPG_0MAC_1MAC_0".utf8)
        #expect(
            stream.feed(bytes) == [
                .init(.u2f, waiting: true), .init(.u2f, waiting: false), .init(.gpg, waiting: true),
                .init(.gpg, waiting: false), .init(.mac, waiting: true), .init(.mac, waiting: false),
            ])
    }

    @Test(arguments: 1...9) func aMessageSplitAcrossReadsIsReadOnceWhole(chunk: Int) {
        var stream = TouchDetectorStream()
        let bytes = Array("GPG_1U2F_1U2F_0GPG_0".utf8)
        var messages: [TouchDetectorStream.Message] = []
        var start = 0
        while start < bytes.count {
            messages += stream.feed(bytes[start..<min(bytes.count, start + chunk)])
            start += chunk
        }
        #expect(
            messages == [
                .init(.gpg, waiting: true), .init(.u2f, waiting: true), .init(.u2f, waiting: false),
                .init(.gpg, waiting: false),
            ])
    }

    @Test func aStrayByteCostsOnlyTheMessageItLandsIn() {
        var stream = TouchDetectorStream()
        #expect(stream.feed(Array("xU2F_1".utf8)) == [.init(.u2f, waiting: true)])
        #expect(stream.feed(Array("U2F_7GPG_1".utf8)) == [.init(.gpg, waiting: true)])
        #expect(stream.feed(Array("u2f_1".utf8)).isEmpty)
    }

    @Test func halfAMessageLeftByAConnectionIsNotJoinedToTheNextOnes() {
        var stream = TouchDetectorStream()
        #expect(stream.feed(Array("U2F".utf8)).isEmpty)
        stream.reset()
        #expect(stream.feed(Array("_1GPG_1".utf8)) == [.init(.gpg, waiting: true)])
    }
}
