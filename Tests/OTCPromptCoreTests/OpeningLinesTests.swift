import Testing

@testable import OTCPromptCore

/// An opening keeps the caller's lines: in text mode (a braille display, a remote user) each line of
/// the news, of gpg's description and the field's question is a line of its own, a blank line between
/// paragraphs; the voice and the speech log hear the same one flow as before.
@Suite struct OpeningLinesTests {
    @Test func aLineBreakCutsTheShownLinesAndIsSaidAsItsSpokenText() {
        let utterance: Utterance =
            "Line one" + .lineBreak(spoken: ", ") + "Line two." + .lineBreak(blankLine: true) + "Next."
        #expect(utterance.lines == ["Line one", "Line two.", "", "Next."])
        #expect(utterance.text == "Line one, Line two. Next.")
        #expect(SpokenText.ssml(utterance) == SpokenText.ssml(utterance.text))
    }

    @Test func theTextBackendWritesEachLine() {
        var written: [String] = []
        let backend = TextSpeechBackend { written.append($0) }
        backend.speak(Announcement(.prompt, "One" + .lineBreak() + "Two\u{1B}[2J"))
        #expect(written.count == 2)
        #expect(written.first == "One")
        #expect(written.last?.contains("\u{1B}") == false, "each line is still made visible")
    }

    @Test func aMessagesLinesAreLinesAndItsHintFollows() throws {
        var session = NoticeSession(message: "Line one\nLine two", takesEnter: true)
        let opening = try #require(session.start().first?.announcement)
        #expect(opening.lines == ["Line one", "Line two.", "Press Enter to continue."])
        #expect(opening.text == "Line one, Line two. Press Enter to continue.", "said and logged as before")
    }

    /// gpg's retry was one run-on line: "Bad Passphrase (try 2 of 3). Passphrase, empty, secret text. … Please enter …".
    @Test func aRetrysNewsTheFieldAndEachLineOfTheDescriptionAreLines() throws {
        var configuration = PromptConfiguration.freeText(label: "Passphrase")
        configuration.news = ["Bad Passphrase (try 2 of 3)"]
        configuration.details = [
            "Please enter the passphrase to unlock the OpenPGP secret key:\n\"Alice <alice@example.org>\"\ncreated 2026-11-23.",
            "Warning: this passphrase is weak.",
        ]
        var session = PromptSession(configuration: configuration)
        let opening = try #require(session.start().first?.announcement)
        #expect(opening.lines.first == "Bad Passphrase (try 2 of 3).")
        #expect(opening.lines.dropFirst().first == "Passphrase. Type it, then Enter.", "\(opening.lines)")
        #expect(
            Array(opening.lines.suffix(6)) == [
                "Please enter the passphrase to unlock the OpenPGP secret key:", "\"Alice <alice@example.org>\"",
                "created 2026-11-23.", "", "Warning: this passphrase is weak.", "Secret text, Control R counts them.",
            ], "\(opening.lines)")
        #expect(!opening.text.contains("\n"))
    }

    @Test(arguments: Language.allCases)
    func aQuestionsDetailsAndLinesAreLines(language: Language) throws {
        let session = ConfirmSession(
            question: "Do you trust\nthe key 6D0B3CD7B42E591B", details: ["Key fingerprint SHA256:abc"],
            language: language,
            verbosity: .terse)
        let opening = try #require(session.start().first?.announcement)
        let choices = Wording.capitalized(language.said("yesOrNo")) + "."
        #expect(
            opening.lines == ["Do you trust", "the key 6D0B3CD7B42E591B? " + choices, "Key fingerprint SHA256:abc."],
            "\(opening.lines)")
        #expect(opening.text == "Do you trust the key 6D0B3CD7B42E591B? " + choices + " Key fingerprint SHA256:abc.")
    }
}
