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

    /// gpg's line breaks are lines on the screen and one flow in the voice: "to. protect" no more.
    @Test func theDescriptionsLineBreaksAreLinesNotSentenceEnds() throws {
        let asked = try #require(
            request(["SETTITLE Unlock key", "SETDESC \(Self.description)", "SETPROMPT Passphrase:", "GETPIN"]))
        #expect(
            asked.paragraphs == [
                "Unlock key",
                "Please enter the passphrase to unlock the OpenPGP secret key:\n\"Alice <alice@example.org>\"\n"
                    + "255-bit EdDSA key, ID 8C3E1A2B9F004D5E,\ncreated 2026-11-23.",
            ])
        #expect(asked.news.isEmpty)
        var configuration = PromptConfiguration.freeText(label: asked.fieldLabel)
        configuration.details = asked.paragraphs
        var session = PromptSession(configuration: configuration)
        let opening = try #require(session.start().first?.announcement).text
        #expect(
            opening.hasPrefix(
                "Passphrase. Type it, then Enter. Unlock key. Please enter the passphrase to unlock the OpenPGP secret "
                    + "key: \"Alice <alice@example.org>\", 255-bit EdDSA key, ID 8C3E1A2B9F004D5E, created 2026-11-23."),
            "\(opening)")
        let wrapped = try #require(
            request(["SETDESC You need a passphrase to%0Aprotect your new key%0A%0AA second paragraph", "GETPIN"]))
        #expect(wrapped.paragraphs == ["You need a passphrase to\nprotect your new key", "A second paragraph"])
        #expect(
            Wording(language: .en).sentences(wrapped.paragraphs)
                == "You need a passphrase to protect your new key. A second paragraph.")
    }

    /// On a retry the news comes first: the error, then the field, then what the dialog is about.
    @Test func onARetryTheErrorIsSaidFirstThenTheFieldThenTheDescription() throws {
        let asked = try #require(
            request([
                "SETTITLE Unlock key", "SETDESC \(Self.description)", "SETPROMPT Passphrase:",
                "SETERROR Bad Passphrase (try 2 of 3)", "GETPIN",
            ]))
        #expect(asked.news == ["Bad Passphrase (try 2 of 3)"])
        var configuration = PromptConfiguration.freeText(label: asked.fieldLabel)
        configuration.details = asked.paragraphs
        configuration.news = asked.news
        var session = PromptSession(configuration: configuration)
        let opening = try #require(session.start().first?.announcement).text
        #expect(opening.hasPrefix("Bad Passphrase (try 2 of 3). Passphrase"), "\(opening)")
        let field = try #require(opening.range(of: "Passphrase. Type it")?.lowerBound)
        let title = try #require(opening.range(of: "Unlock key.")?.lowerBound)
        #expect(field < title, "the description follows the field")
        #expect(session.handle(.readBack).first?.announcement?.text == opening, "Ctrl-R says it all again")
    }

    @Test func gpgsKeyIDIsSpelledInGroupsForTheEar() {
        #expect(
            SpokenForm.said(Utterance("255-bit EDDSA key, ID 8C3E1A2B9F004D5E,")).text
                == "255-bit E D D S A key, ID 8 C 3 E, 1 A 2 B, 9 F 0 0, 4 D 5 E,")
    }

    @Test func controlCharactersReachTheScreenAndTheVoiceOnlyEscaped() throws {
        let asked = try #require(request(["SETDESC evil%1B[2Jtext%07", "GETPIN"]))
        #expect(asked.paragraphs.count == 1)
        #expect(!asked.paragraphs[0].unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
        #expect(asked.paragraphs[0].hasPrefix("evil") && asked.paragraphs[0].contains("[2Jtext"))
    }

    @Test func theRepeatPromptAndItsError() throws {
        let asked = try #require(request(["SETREPEAT", "SETREPEATERROR does not match - try again", "GETPIN"]))
        #expect(asked.repeatLabel == "Repeat")
        #expect(asked.repeatMismatch == "does not match - try again")
        #expect(try #require(request(["GETPIN"])).repeatLabel == nil)
        #expect(try #require(request(["SETREPEAT Repeat passphrase:", "GETPIN"])).repeatLabel == "Repeat passphrase")
    }

    @Test func aConfirmationAsksItsLastParagraphInOneFlow() throws {
        let asked = try #require(
            request([
                "SETDESC Key 8C3E1A2B%0A%0ADo you trust%0Athe key 8C3E1A2B9F004D5E?", "SETERROR Try again", "CONFIRM",
            ]))
        #expect(asked.question.question == "Do you trust\nthe key 8C3E1A2B9F004D5E?")
        #expect(asked.question.details == ["Key 8C3E1A2B"])
        #expect(asked.news == ["Try again"])
        var session = ConfirmSession(question: asked.question.question, details: asked.question.details)
        session.news = asked.news
        #expect(session.snapshot.label.hasPrefix("the key 8C3E1A2B9F004D5E? ("), "the last line beside the answer")
        #expect(session.shownLines == ["Try again", "Key 8C3E1A2B", "Do you trust"])
        // The news, then the question, then what it is about.
        #expect(
            session.start().first?.announcement?.text.hasPrefix(
                "Try again. Do you trust the key 8C3E1A2B9F004D5E? Yes or no. Key 8C3E1A2B.") == true,
            "\(session.start())")
    }

    /// A CONFIRM whose paragraphs ask nothing (gpg-agent's weak-passphrase warning): its first paragraph heads it and
    /// is said first, with the choices; its reasons follow.
    @Test func aWarningWithNoQuestionIsHeadedByItsFirstParagraph() throws {
        let asked = try #require(
            request([
                "SETDESC Warning: You have entered an insecure passphrase.%0A%0AA passphrase should be at least 8 "
                    + "characters long.", "SETOK Take this one anyway", "SETCANCEL Enter new passphrase", "CONFIRM",
            ]))
        #expect(asked.question.question == "Warning: You have entered an insecure passphrase.")
        #expect(asked.question.details == ["A passphrase should be at least 8 characters long."])
        let session = ConfirmSession(
            question: asked.question.question, details: asked.question.details, labels: asked.labels)
        #expect(
            session.start().first?.announcement?.lead?.text
                == "Warning: You have entered an insecure passphrase. Take this one anyway or Enter new passphrase.")
    }

    /// SETOK, SETNOTOK, SETCANCEL become the question's choices, without their mnemonic underscores.
    @Test func theButtonLabelsAreTheChoices() throws {
        let asked = try #require(
            request([
                "SETDESC Weak", "SETOK _Take this one anyway", "SETNOTOK Enter new _passphrase", "SETCANCEL _Cancel",
                "CONFIRM",
            ]))
        #expect(
            asked.labels == ConfirmLabels(yes: "Take this one anyway", no: "Enter new passphrase", cancel: "Cancel"))
        #expect(PinentryRequest.label("snake__case") == "snake_case")
        #expect(try #require(request(["CONFIRM"])).labels.isEmpty)
    }
}
