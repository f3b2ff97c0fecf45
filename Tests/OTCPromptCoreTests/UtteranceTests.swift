import OTCPromptTestSupport
import Testing

@testable import OTCPromptCore

/// Segments → text (the screen, the text backend, the speech log) and segments → SSML (espeak-ng,
/// speech-dispatcher).
@Suite struct UtteranceTests {
    private static func sayAs(_ characters: String) -> String {
        "<say-as interpret-as=\"characters\">\(characters)</say-as>"
    }

    // MARK: Text

    @Test func charactersAreWrittenSpacedWithTheirGroupsApartAtCommas() {
        #expect(Utterance.characters([["9", "8", "5"], ["3", "9", "1"]]).text == "9 8 5, 3 9 1")
        #expect(Utterance.characters([["p", "space", "at sign"]]).text == "p space at sign")
        #expect(
            ("pasted: " + Utterance.characters([["G", "1"], ["A"]]) + ". 3 of 6").text == "pasted: G 1, A. 3 of 6")
    }

    @Test func adjacentWordsAreJoinedAndEmptySegmentsDropped() {
        let built = Utterance("code ") + "rejected" + Utterance([.words(""), .characters([[], ["1"]])])
        #expect(built.segments == [.words("code rejected"), .characters([["1"]])])
        #expect(Utterance([]).isEmpty && Utterance("").isEmpty)
    }

    @Test func announcementsAreEqualBySegmentsNotByText() {
        let spelled = Announcement(.digit, Utterance.characters([["9"]]))
        let prose = Announcement(.digit, "9")
        #expect(spelled.text == prose.text)
        #expect(spelled != prose)
        #expect(spelled == Announcement(.digit, "\(spelled: "9")"))
    }

    @Test func theTestSpellingReadsTheTextBack() {
        #expect(Utterance.groups(written: "9 8 5, 3") == [["9", "8", "5"], ["3"]])
    }

    // MARK: SSML

    @Test func groupsWithALetterAreSaidAsCharactersOneGroupAtATime() {
        let code = Utterance.characters([["G", "1", "A"], ["2", "B", "C"]])
        #expect(SpokenText.ssml(code) == "<speak>\(Self.sayAs("g1a")), \(Self.sayAs("2bc"))</speak>")
    }

    @Test func digitsStaySpacedPlainText() {
        #expect(SpokenText.ssml(Utterance.characters([["9", "8", "5"], ["3"]])) == "<speak>9 8 5, 3</speak>")
        let mixed = Utterance.characters([["1", "2", "3"], ["A", "4", "5"]])
        #expect(SpokenText.ssml(mixed) == "<speak>1 2 3, \(Self.sayAs("a45"))</speak>")
    }

    @Test func symbolNamesAreWordsBetweenSpelledRuns() {
        let secret = Utterance.characters([["p", "a", "s"], ["s", "dollar", "w"], ["é", "<", "&"]])
        #expect(
            SpokenText.ssml(secret)
                == "<speak>\(Self.sayAs("pas")), \(Self.sayAs("s")) dollar \(Self.sayAs("w")), é &lt; &amp;</speak>")
    }

    /// The one change from reading flat text: espeak-ng read a lone lower-case letter as a word.
    @Test func aLoneLowercaseLetterAmongCharactersIsSpelledWhereProseLeavesIt() {
        let typed = Utterance.characters([["a"]]) + ", 3 entered"
        #expect(SpokenText.ssml(typed) == "<speak>\(Self.sayAs("a")), 3 entered</speak>")
        #expect(SpokenText.ssml(typed.text) == "<speak>a, 3 entered</speak>")
        let capital = Utterance.characters([["A"]]) + " and more words"
        #expect(SpokenText.ssml(capital) == "<speak>\(Self.sayAs("a")) and more words</speak>")
    }

    @Test func wordsKeepTheProseRulesBesideCharacters() {
        let deleted = "A code, deleted " + Utterance.characters([["I"]])
        #expect(SpokenText.ssml(deleted) == "<speak>A code, deleted \(Self.sayAs("i"))</speak>")
        let fingerprint = Utterance("key SHA256:3uW0xQk7J2r0 < ok")
        #expect(
            SpokenText.ssml(Announcement(.prompt, fingerprint).said)
                == "<speak>key SHA256: \(Self.sayAs("3uw0")), \(Self.sayAs("xqk7")), \(Self.sayAs("j2r0")) &lt; ok</speak>"
        )
    }

    /// Codes (letters upper-case, digits) are heard exactly as when the flat text was re-read. (A letter that
    /// could be taken for a digit is said "letter G", a spelled letter of its own: `SpellingTests`.)
    @Test(arguments: Language.allCases, [CodeCharset.digits, .alnum])
    func everyCodeAnnouncementSoundsAsItDidFromFlatText(language: Language, charset: CodeCharset) {
        let wording = Wording(language: language)
        let code = Array(charset == .digits ? "98539127" : "K1A2PC7X")
        for verbosity in Verbosity.allCases {
            let style = Wording.Style(verbosity: verbosity)
            var field = CodeField(length: 8, charset: charset)
            var said: [Utterance] = [wording.fieldLead(label: "Code", field: field, style: style)]
            for character in code {
                field.append(character)
                said.append(wording.typed(character, field: field, style: style))
                said.append(wording.readBack(field: field, style: style))
                said.append(wording.fieldLead(label: "Code", field: field, style: style))
            }
            said.append(wording.completed(by: "X", field: field, style: style))
            said.append(wording.pasted(code, offset: 0, extracted: true, overflowed: true, field: field, style: style))
            said.append(wording.notAllowed("x", field: CodeField(length: 6, charset: .digits), style: style))
            said.append(
                wording.checkRejected(
                    errorLine: "bad", attemptsLeft: 2, newAttempt: field, field: field, style: style))
            if let deleted = field.deleteLast() { said.append(wording.deleted(deleted, field: field, style: style)) }
            for utterance in said {
                #expect(SpokenText.ssml(utterance) == SpokenText.ssml(utterance.text), "\(utterance.text)")
            }
        }
    }
}
