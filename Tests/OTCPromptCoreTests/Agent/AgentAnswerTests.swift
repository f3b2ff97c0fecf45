import Testing

@testable import OTCPromptCore

/// The one datagram an agent sends, and how a querier of otc-prompt's reads it.
@Suite struct AgentAnswerTests {
    private func datagram(_ answer: AgentAnswer) -> [UInt8] {
        var bytes = [UInt8](repeating: 0xAA, count: answer.datagramCount)
        let written = bytes.withUnsafeMutableBytes { answer.writeDatagram(into: $0) }
        return Array(bytes[..<written])
    }

    @Test func aPasswordIsAPlusAndItsBytes() {
        #expect(datagram(.password("pässword")) == Array("+pässword".utf8))
    }

    @Test(arguments: [
        (AgentAnswer.cancel, "-"), (.yes, "+yes"), (.no, "+no"), (.acknowledged, "+"), (.password(""), "+"),
    ])
    func eachAnswerHasItsDatagram(answer: AgentAnswer, text: String) {
        #expect(datagram(answer) == Array(text.utf8))
        #expect(answer.datagramCount == text.utf8.count)
    }

    @Test(arguments: [
        ("+secret", AskFile.Kind.password, AgentAnswer.password("secret")), ("-", .password, .cancel),
        ("+yes", .question, .yes), ("+no", .question, .no), ("+", .notice, .acknowledged),
        ("-", .question, .cancel), ("+first\0second", .password, .password("first")),
    ])
    func aDatagramDecodesToItsAnswer(text: String, kind: AskFile.Kind, answer: AgentAnswer) {
        let decoded = Array(text.utf8).withUnsafeBytes { AgentAnswer.decode($0, kind: kind) }
        #expect(decoded == answer)
    }

    @Test(arguments: [("", AskFile.Kind.password), ("x", .password), ("+maybe", .question), ("*", .notice)])
    func aDatagramThatIsNoAnswerDecodesToNil(text: String, kind: AskFile.Kind) {
        #expect(Array(text.utf8).withUnsafeBytes { AgentAnswer.decode($0, kind: kind) } == nil)
    }
}
