import Testing

@testable import OTCPromptCore

/// What a pinentry dialog shows and says.
@Suite struct PinentryRequestTests {
    static let description =
        "Please enter the passphrase to unlock the OpenPGP secret key:%0A%22Alice <alice@example.org>%22%0A255-bit EdDSA key, ID 8C3E1A2B9F004D5E,%0Acreated 2026-11-23.%0A"

    private func request(_ lines: [String]) -> PinentryRequest? {
        var conversation = PinentryConversation(identity: PinentryConversationTests.identity)
        var request: PinentryRequest?
        for line in lines {
            if case .dialog(let asked)? = conversation.receive(Array(line.utf8)) { request = asked }
        }
        return request
    }

    @Test func theTitleDescriptionAndErrorAreReadInOrderEveryLine() throws {
        let asked = try #require(
            request([
                "SETTITLE Unlock key", "SETDESC \(Self.description)", "SETPROMPT Passphrase:",
                "SETERROR Bad passphrase (try 2 of 3)", "GETPIN",
            ]))
        #expect(
            asked.lines == [
                "Unlock key", "Please enter the passphrase to unlock the OpenPGP secret key:",
                "\"Alice <alice@example.org>\"", "255-bit EdDSA key, ID 8C3E1A2B9F004D5E", "created 2026-11-23.",
                "Bad passphrase (try 2 of 3)",
            ])
        // Said before the field, in that order, by the session that asks for it.
        var configuration = PromptConfiguration.freeText(label: asked.fieldLabel)
        configuration.details = asked.lines
        var session = PromptSession(configuration: configuration)
        guard case .announce(let opening)? = session.start().first else {
            Issue.record("no opening announcement")
            return
        }
        // Each line (its last characters may become a sentence's end) in order, the field last.
        let positions = (asked.lines.map { String($0.dropLast(1)) } + ["Passphrase, "]).map {
            opening.text.range(of: $0)?.lowerBound
        }
        #expect(positions.allSatisfy { $0 != nil })
        #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted())
        #expect(asked.fieldLabel == "Passphrase")
    }

    @Test func gpgsKeyIDIsSpelledInGroupsForTheEar() {
        #expect(
            CodeGrouping.groupingOpaqueWords("255-bit EdDSA key, ID 8C3E1A2B9F004D5E,")
                == "255-bit EdDSA key, ID 8 C 3 E, 1 A 2 B, 9 F 0 0, 4 D 5 E,")
    }

    @Test func controlCharactersReachTheScreenAndTheVoiceOnlyEscaped() throws {
        let asked = try #require(request(["SETDESC evil%1B[2Jtext%07", "GETPIN"]))
        #expect(asked.lines.count == 1)
        #expect(!asked.lines[0].unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
        #expect(asked.lines[0].hasPrefix("evil") && asked.lines[0].contains("[2Jtext"))
    }

    @Test func theRepeatPromptAndItsError() throws {
        let asked = try #require(request(["SETREPEAT", "SETREPEATERROR does not match - try again", "GETPIN"]))
        #expect(asked.repeatLabel == "Repeat")
        #expect(asked.repeatMismatch == "does not match - try again")
        #expect(try #require(request(["GETPIN"])).repeatLabel == nil)
        #expect(try #require(request(["SETREPEAT Repeat passphrase:", "GETPIN"])).repeatLabel == "Repeat passphrase")
    }

    @Test func aConfirmationAsksItsLastLine() throws {
        let asked = try #require(request(["SETDESC Do you trust%0Athe key 8C3E1A2B9F004D5E?", "CONFIRM"]))
        #expect(asked.question.question == "the key 8C3E1A2B9F004D5E?")
        #expect(asked.question.details == ["Do you trust"])
    }
}
