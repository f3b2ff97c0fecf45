import OTCPromptCore
import Testing

@testable import OTCPromptSpeech

extension SpeechTests {
    /// The spoken forms of a letter and the digit it looks like, through real espeak-ng in each language's
    /// voice: their phonemes differ, and the digit's name is not heard inside the letter's.
    @Suite struct SpellingByEarTests {
        static let lookalikes: [(letter: Character, digit: Character)] = [
            ("O", "0"), ("I", "1"), ("L", "1"), ("S", "5"), ("B", "8"), ("Z", "2"), ("G", "6"),
        ]

        static func typed(_ text: String, _ charset: CodeCharset, _ language: Language, _ spelling: Spelling)
            -> Utterance
        {
            var field = CodeField(
                length: charset == .any ? 256 : 6, charset: charset, kind: charset == .any ? .freeText : .code)
            _ = field.append(contentsOf: text)
            return Wording(language: language).typed(
                field.characters.last!, field: field, style: Wording.Style(spelling: spelling))
        }

        /// The phonemes, stress and pause marks dropped: what the listener tells apart.
        static func sounds(_ phonemes: String) -> String {
            String(phonemes.filter { !"'_:!, \n".contains($0) })
        }

        @Test(arguments: Language.allCases, Spelling.allCases)
        func aLetterOfACodeAndTheDigitItLooksLikeSoundDifferent(language: Language, spelling: Spelling) throws {
            try withEngine(SpeechOptions(language: language)) { engine in
                for (letter, digit) in Self.lookalikes {
                    let letterSaid = Self.sounds(
                        engine.spokenPhonemes(of: Self.typed(String(letter), .alnum, language, spelling)))
                    let digitSaid = Self.sounds(
                        engine.spokenPhonemes(of: Self.typed(String(digit), .alnum, language, spelling)))
                    #expect(!letterSaid.isEmpty && !digitSaid.isEmpty)
                    #expect(
                        !letterSaid.contains(digitSaid),
                        "\(language) \(spelling): \(letter) \(letterSaid), \(digit) \(digitSaid)")
                }
            }
        }

        /// Plain spelling says the letter's own name after the word "letter", in every language's voice.
        @Test(arguments: Language.allCases)
        func aLetterThatLooksLikeADigitIsHeardWithItsName(language: Language) throws {
            try withEngine(SpeechOptions(language: language)) { engine in
                for (letter, _) in Self.lookalikes {
                    let name = Self.sounds(engine.spokenPhonemes(of: .characters([[String(letter)]])))
                    let said = Self.sounds(
                        engine.spokenPhonemes(of: Self.typed(String(letter), .alnum, language, .plain)))
                    #expect(said.hasSuffix(name) || said.contains(name), "\(language) \(letter): \(said) lacks \(name)")
                    #expect(said != name, "\(language) \(letter): said as the bare name")
                }
            }
        }

        @Test(arguments: Language.allCases)
        func aCapitalAndALowerCaseLetterOfASecretSoundDifferent(language: Language) throws {
            try withEngine(SpeechOptions(language: language)) { engine in
                for letter in ["A", "O", "L"] {
                    let capital = Self.sounds(engine.spokenPhonemes(of: Self.typed(letter, .any, language, .plain)))
                    let lower = Self.sounds(
                        engine.spokenPhonemes(of: Self.typed(letter.lowercased(), .any, language, .plain)))
                    #expect(capital != lower, "\(language) \(letter): \(capital)")
                }
            }
        }

        /// The English voice, against the phonemes espeak-ng gives on the command line (`espeak-ng -v en -x`).
        @Test func englishSaysLetterOhAndZero() throws {
            let (letter, digit) = try withEngine { engine in
                (
                    engine.spokenPhonemes(of: Self.typed("O", .alnum, .en, .plain)),
                    engine.spokenPhonemes(of: Self.typed("0", .alnum, .en, .plain))
                )
            }
            #expect(letter.contains("l'Et3") && letter.contains("'oU"), "\(letter)")
            #expect(digit.contains("z'i@roU"), "\(digit)")
        }
    }
}
