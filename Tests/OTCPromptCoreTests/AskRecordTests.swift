import OTCPromptCore
import Testing

/// What is remembered between runs to say "the previous answer was not accepted".
@Suite struct AskRecordTests {
    let record = AskRecord(callerProcess: 4242, prompt: "[sudo] password for joe: ", answeredAt: 1000)

    @Test func theSameCallerAskingTheSameQuestionSoonIsARetry() {
        #expect(record.isAskedAgain(by: 4242, prompt: "[sudo] password for joe: ", at: 1002))
        #expect(record.isAskedAgain(by: 4242, prompt: "[sudo] password for joe: ", at: 1000 + AskRecord.retryWindow))
    }

    @Test func anythingElseIsANewQuestion() {
        #expect(!record.isAskedAgain(by: 4243, prompt: "[sudo] password for joe: ", at: 1002), "another sudo")
        #expect(!record.isAskedAgain(by: 4242, prompt: "Verification code: ", at: 1002), "the next question")
        #expect(!record.isAskedAgain(by: 4242, prompt: "[sudo] password for joe: ", at: 1061), "too late")
        #expect(!record.isAskedAgain(by: 4242, prompt: "[sudo] password for joe: ", at: 999), "before it")
    }

    @Test func theRecordIsOneLineWithNoWordsOfThePrompt() {
        #expect(!record.line.contains("sudo") && record.line.hasSuffix("\n"))
        #expect(AskRecord(line: record.line) == record)
        for damaged in ["", "1 4242", "2 4242 1 1000\n", "1 x 1 1000", "1 4242 1 1000 extra"] {
            #expect(AskRecord(line: damaged) == nil, "\(damaged)")
        }
    }

    @Test func theDigestIsStableAcrossRuns() {
        #expect(AskRecord.digest("") == 0xcbf2_9ce4_8422_2325)
        #expect(AskRecord.digest("a") == 0xaf63_dc4c_8601_ec8c)
    }
}

/// The caller's other lines are said after the question, and again on Ctrl-R.
@Suite struct AskpassDetailsTests {
    @Test func detailsFollowTheQuestionAndAreSaidAgainOnControlRWhileTheFieldIsEmpty() {
        var configuration = PromptConfiguration.freeText(label: "Password (joe@host)")
        configuration.details = ["Your password expires in 3 days", "Contact IT"]
        var session = PromptSession(configuration: configuration)
        let opening = session.start()
        guard case .announce(let announcement) = opening.first else { return #expect(Bool(false)) }
        #expect(
            announcement.text.hasPrefix(
                "Password (joe@host). Type it, then Enter. Your password expires in 3 days. Contact IT."))
        #expect(session.handle(.readBack) == opening)
        _ = session.handle(.character("x"))
        #expect(session.handle(.readBack).first != opening.first, "with something typed, Ctrl-R counts it")
    }
}
