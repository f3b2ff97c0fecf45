import OTCPromptTestSupport
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
                "\"Alice <alice@example.org>\"", "255-bit EdDSA key, ID 8C3E1A2B9F004D5E,", "created 2026-11-23.",
                "Bad passphrase (try 2 of 3)",
            ])
        #expect(
            asked.spokenLines
                == "Unlock key. Please enter the passphrase to unlock the OpenPGP secret key: \"Alice <alice@example.org>\". "
                + "255-bit EdDSA key, ID 8 C 3, E 1 A, 2 B 9, F 0 0, 4 D 5 E. created 2026-11-23. Bad passphrase (try 2 of 3)."
        )
        #expect(asked.fieldLabel == "Passphrase")
    }

    @Test func aFingerprintInGroupsOfFourIsSpelledGroupByGroup() {
        #expect(
            PinentrySpeech.spellingCodes("Fingerprint: 8C3E 1A2B 9F00 4D5E")
                == "Fingerprint: 8 C 3 E, 1 A 2 B, 9 F 0 0, 4 D 5 E")
        #expect(PinentrySpeech.spellingCodes("ID 0x12345678)") == "ID 1 2 3 4, 5 6 7 8)")
        #expect(PinentrySpeech.spellingCodes("in 2026 and 1999") == "in 2026 and 1999")
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
        #expect(asked.repeatMismatch == "does not match - try again.")
        #expect(try #require(request(["GETPIN"])).repeatLabel == nil)
        #expect(try #require(request(["SETREPEAT Repeat passphrase:", "GETPIN"])).repeatLabel == "Repeat passphrase")
    }

    @Test func aConfirmationAsksItsLastLine() throws {
        let asked = try #require(request(["SETDESC Do you trust%0Athe key 8C3E1A2B9F004D5E?", "CONFIRM"]))
        #expect(asked.question.question == "the key 8 C 3, E 1 A, 2 B 9, F 0 0, 4 D 5 E?")
        #expect(asked.question.details == ["Do you trust"])
    }

    @Test func thePrefaceIsSaidWithTheFirstAnnouncementOnly() {
        let recorder = RecordingSpeechBackend()
        let backend = PrefacedSpeechBackend(wrapping: recorder, preface: "Bad passphrase.")
        backend.speak(Announcement(.prompt, "Passphrase, masked."))
        backend.speak(Announcement(.digit, "1 character."))
        #expect(recorder.texts == ["Bad passphrase. Passphrase, masked.", "1 character."])
        #expect(recorder.events == [.prompt, .digit])
    }
}
