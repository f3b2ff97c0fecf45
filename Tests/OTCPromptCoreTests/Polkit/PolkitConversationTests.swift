import Testing

@testable import OTCPromptCore

/// One BeginAuthentication from the helper's first line to polkitd's reply.
@Suite struct PolkitConversationTests {
    @Test func aPromptOpensAFieldAndSuccessEndsAuthenticated() {
        var conversation = PolkitConversation(language: .en)
        #expect(
            conversation.receive(.prompt("Password: ", echo: false))
                == .ask(prompt: "Password: ", echo: false, news: []))
        conversation.answered()
        #expect(conversation.receive(.success) == .finish(.authenticated, news: []))
        #expect(conversation.isEnded)
    }

    @Test(arguments: Language.allCases)
    func pamMessagesAreSaidWithTheNextField(language: Language) {
        var conversation = PolkitConversation(language: language)
        #expect(conversation.receive(.info("Welcome, admin.")) == .wait)
        #expect(conversation.receive(.error("\u{1B}[31mKey\u{07}")) == .wait)
        #expect(
            conversation.receive(.prompt("PIN: ", echo: true))
                == .ask(prompt: "PIN: ", echo: true, news: ["Welcome, admin.", #"\x1B[31mKey\x07"#]))
        conversation.answered()
        #expect(conversation.receive(.info("Done.")) == .wait)
        #expect(conversation.receive(.success) == .finish(.authenticated, news: ["Done."]))
    }

    @Test func pamMessagesTakenWhileTheHelperWaitsAreSaidOnceAndNotAgainWithTheField() {
        var conversation = PolkitConversation(language: .en)
        #expect(conversation.receive(.info("Place your finger on the reader.")) == .wait)
        #expect(conversation.takeNews() == ["Place your finger on the reader."])
        #expect(conversation.takeNews() == [])
        #expect(conversation.receive(.error("Finger not recognised.")) == .wait)
        #expect(conversation.takeNews() == ["Finger not recognised."])
        #expect(
            conversation.receive(.prompt("Password: ", echo: false))
                == .ask(prompt: "Password: ", echo: false, news: []))
        // While a field is open there is nothing to take: the field is the one that says things.
        #expect(conversation.takeNews() == [])
        conversation.answered()
        #expect(conversation.receive(.info("Touch the key.")) == .wait)
        #expect(conversation.takeNews() == ["Touch the key."])
        #expect(conversation.receive(.success) == .finish(.authenticated, news: []))
    }

    @Test(arguments: Language.allCases)
    func aWrongPasswordIsSaidAndAskedAgainUpToThreeTimes(language: Language) {
        var conversation = PolkitConversation(language: language)
        for attempt in 2...PolkitConversation.attempts {
            _ = conversation.receive(.prompt("Password: ", echo: false))
            conversation.answered()
            #expect(conversation.receive(.failure) == .restartHelper)
            #expect(conversation.attempt == attempt)
            #expect(
                conversation.receive(.prompt("Password: ", echo: false))
                    == .ask(
                        prompt: "Password: ", echo: false,
                        news: [language.said("polkit.wrongPassword", attempt)]))
            conversation.answered()
            if attempt < PolkitConversation.attempts { continue }
            #expect(conversation.receive(.failure) == .finish(.failed, news: [language.said("polkit.failed")]))
        }
        #expect(conversation.isEnded)
    }

    @Test func cancellingEndsAtOnceWhateverTheHelperIsDoing() {
        var asking = PolkitConversation(language: .en)
        _ = asking.receive(.prompt("Password: ", echo: false))
        #expect(asking.cancel() == .finish(.cancelled, news: []))
        var checking = PolkitConversation(language: .en)
        _ = checking.receive(.prompt("Password: ", echo: false))
        checking.answered()
        #expect(checking.cancel() == .finish(.cancelled, news: []))
        // A line arriving after the end changes nothing: polkitd has had its reply.
        #expect(checking.receive(.success) == .wait)
        #expect(checking.cancel() == .wait)
    }

    @Test func aHelperThatEndsWithoutAWordIsAWrongTry() {
        var conversation = PolkitConversation(language: .en)
        #expect(conversation.helperEnded() == .restartHelper)
        #expect(conversation.receive(.unknown) == .restartHelper)
        #expect(
            conversation.receive(.unknown)
                == .finish(
                    .failed, news: ["Wrong password, try 2.", "Wrong password, try 3.", "Authentication failed."]))
    }
}
