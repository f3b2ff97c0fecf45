import Testing

@testable import OTCPromptCore

/// The answers a question's own words name (`ConfirmSession.namedAnswers`): ssh's "(yes/no/[fingerprint])".
@Suite struct ConfirmNamedAnswersTests {
    /// Types `text` then Enter; returns the effects of Enter.
    private func answer(_ session: inout ConfirmSession, _ text: String) -> [PromptEffect] {
        for character in text { _ = session.handle(.character(character)) }
        return session.handle(.submit)
    }

    /// ssh's question names "yes" and "no" in English whatever the locale: typed whole, they answer it beside the
    /// language's words; a question naming nothing takes only the language's.
    @Test(arguments: Language.allCases)
    func theWordsTheQuestionNamesAnswerItInAnyLanguage(language: Language) {
        let named = ConfirmLabels(yes: "yes", no: "no")
        var session = ConfirmSession(question: "Continue connecting?", namedAnswers: named, language: language)
        #expect(answer(&session, "YES").contains(.confirmed(true)))
        var refused = ConfirmSession(question: "Continue connecting?", namedAnswers: named, language: language)
        #expect(answer(&refused, "no").contains(.confirmed(false)))
        var unnamed = ConfirmSession(question: "Allow?", language: language)
        let effects = answer(&unnamed, language == .en ? "maybe" : "yes")
        #expect(!effects.contains(.confirmed(true)) && !unnamed.isFinished)
        var partly = ConfirmSession(question: "Continue connecting?", namedAnswers: named, language: language)
        #expect(!answer(&partly, "y").contains(.confirmed(true)), "never a single letter")
    }
}
