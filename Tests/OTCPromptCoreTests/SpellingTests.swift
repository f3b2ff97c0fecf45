import OTCPromptTestSupport
import Testing

@testable import OTCPromptCore

/// How characters are said so that none is heard as another: digits always as digits; where letters
/// may be typed too, a letter that could be taken for a digit as "letter O"; in free text the case
/// ("capital A"); under `--spell phonetic` the spelling alphabet. Every language, from its catalog.
@Suite struct SpellingTests {
    static let lookalikes: [(letter: Character, digit: Character)] = [
        ("O", "0"), ("I", "1"), ("L", "1"), ("S", "5"), ("B", "8"), ("Z", "2"), ("G", "6"),
    ]

    static func field(_ text: String, _ charset: CodeCharset, length: Int = 6) -> CodeField {
        var field = CodeField(
            length: charset == .any ? 256 : length, charset: charset, kind: charset == .any ? .freeText : .code)
        _ = field.append(contentsOf: text)
        return field
    }

    static func typed(
        _ character: Character, _ charset: CodeCharset, _ language: Language, _ spelling: Spelling = .plain
    )
        -> Utterance
    {
        let field = Self.field(String(character), charset)
        return Wording(language: language).typed(
            field.characters.last!, field: field, style: Wording.Style(spelling: spelling))
    }

    @Test(arguments: Language.allCases, Spelling.allCases)
    func aDigitsOnlyCodeIsSpelledAsBeforeWhateverTheSpelling(language: Language, spelling: Spelling) {
        let field = Self.field("985391", .digits)
        let readBack = Wording(language: language).readBack(field: field, style: Wording.Style(spelling: spelling))
        let separator = language.phrases.groupSeparator
        let expected = Utterance.characters([["9", "8", "5"]]) + separator + Utterance.characters([["3", "9", "1"]])
        #expect(readBack.segments.prefix(3) == expected.segments[...])
        #expect(Self.typed("0", .digits, language, spelling) == .characters([["0"]]))
    }

    @Test(arguments: Language.allCases, [CodeCharset.alnum, .any])
    func aLetterThatLooksLikeADigitIsSaidAsALetter(language: Language, charset: CodeCharset) {
        for (letter, digit) in Self.lookalikes {
            let written = charset == .any ? String(letter).lowercased() : String(letter)
            let said = Self.typed(Character(written), charset, language)
            #expect(said == language.phrases.letter(.characters([[written]])), "\(language) \(letter)")
            #expect(Self.typed(digit, charset, language) == .characters([[String(digit)]]))
            #expect(said.text != String(digit) && said.text != written, "\(language): \(said.text)")
        }
    }

    @Test(arguments: Language.allCases)
    func otherLettersOfACodeKeepTheirShortNames(language: Language) {
        for letter in "ACDEFHJKMNPQRTUVWXY" {
            #expect(Self.typed(letter, .alnum, language) == .characters([[String(letter)]]))
        }
    }

    @Test(arguments: Language.allCases)
    func freeTextSaysTheCaseOfALetter(language: Language) {
        let capital = Self.typed("A", .any, language)
        #expect(capital == language.phrases.capital(.characters([["A"]])))
        #expect(Self.typed("a", .any, language) == .characters([["a"]]))
        #expect(capital.text != "A" && capital.text != "a")
        // "capital O" already says it is a letter.
        #expect(Self.typed("O", .any, language) == language.phrases.capital(.characters([["O"]])))
        #expect(Self.typed("$", .any, language) == .characters([[language.said("symbol.dollar")]]))
    }

    @Test(arguments: Language.allCases)
    func phoneticSpellingSaysEveryLetterByItsWord(language: Language) {
        let words = language.phrases.phonetic
        #expect(words.count == 26)
        #expect(Set(words).count == 26, "\(language): every letter its own word")
        #expect(words.allSatisfy { !$0.isEmpty && !$0.contains("|") })
        for (index, letter) in "ABCDEFGHIJKLMNOPQRSTUVWXYZ".enumerated() {
            #expect(Self.typed(letter, .alnum, language, .phonetic) == Utterance(words[index]))
        }
        #expect(Self.typed("o", .any, language, .phonetic) == Utterance(words[14]))
        #expect(Self.typed("O", .any, language, .phonetic) == language.phrases.capital(Utterance(words[14])))
        #expect(Self.typed("0", .alnum, language, .phonetic) == .characters([["0"]]))
        #expect(Self.typed("é", .any, language, .phonetic) == .characters([["é"]]))
    }

    @Test func englishSaysTheICAOAlphabet() {
        #expect(
            Language.en.phrases.phonetic.joined(separator: " ")
                == "Alfa Bravo Charlie Delta Echo Foxtrot Golf Hotel India Juliett Kilo Lima Mike November Oscar Papa Quebec Romeo Sierra Tango Uniform Victor Whiskey X-ray Yankee Zulu"
        )
        #expect(Self.typed("O", .alnum, .en).text == "letter O")
        #expect(Self.typed("A", .any, .en).text == "capital A")
    }

    /// The groups of a read-back are apart by the language's separator, whatever stands in them.
    @Test(arguments: Language.allCases, Spelling.allCases)
    func aReadBackKeepsItsGroupsApartByTheLanguagesSeparator(language: Language, spelling: Spelling) {
        let wording = Wording(language: language)
        let style = Wording.Style(spelling: spelling)
        let field = Self.field("O0KB81", .alnum)
        let first = ["O", "0", "K"].map { Self.typed(Character($0), .alnum, language, spelling) }.joined(separator: " ")
        let second = ["B", "8", "1"].map { Self.typed(Character($0), .alnum, language, spelling) }.joined(
            separator: " ")
        let expected = first + language.phrases.groupSeparator + second + ". " + language.phrases.allEntered(6)
        #expect(wording.readBack(field: field, style: style).text == expected.text)
    }

    /// espeak-ng reads a lone capital as a word ("A" as the article): the letter in "letter O" is spelled.
    @Test(arguments: Language.allCases)
    func theLetterInsideItsPhraseIsSpelledByTheVoice(language: Language) {
        let ssml = SpokenText.ssml(Self.typed("O", .alnum, language))
        #expect(ssml.contains("<say-as interpret-as=\"characters\">o</say-as>"), "\(ssml)")
        #expect(
            SpokenText.ssml(Self.typed("A", .any, language)).contains("<say-as interpret-as=\"characters\">a</say-as>"))
    }

    @Test func aMaskedFieldNamesNoLetterWhateverTheSpelling() {
        let field = Self.field("O", .alnum)
        let said = Wording(language: .en).typed(
            "O", field: field, style: Wording.Style(mask: true, spelling: .phonetic))
        #expect(!said.text.contains("O") && !said.text.contains("Oscar"))
    }
}
