import OTCPromptCore
import Testing

@testable import OTCPromptSpeech

extension SpeechTests {
    @Suite struct SpokenTextTests {
        @Test func spacedLettersAreSpelledOneGroupAtATime() {
            #expect(
                SpokenText.ssml("G 1 A, 2 B C, 6 of 6")
                    == "<speak><say-as interpret-as=\"characters\">g1a</say-as>, "
                    + "<say-as interpret-as=\"characters\">2bc</say-as>, 6 of 6</speak>")
        }

        @Test func digitsStayPlainText() {
            #expect(SpokenText.ssml("9 8 5, 3 9 1, 6 of 6") == "<speak>9 8 5, 3 9 1, 6 of 6</speak>")
        }

        @Test func aLoneCapitalIsSpelledUnlessItOpensProse() {
            #expect(SpokenText.ssml("A") == "<speak><say-as interpret-as=\"characters\">a</say-as></speak>")
            #expect(
                SpokenText.ssml("deleted I") == "<speak>deleted <say-as interpret-as=\"characters\">i</say-as></speak>")
            #expect(SpokenText.ssml("A code was sent") == "<speak>A code was sent</speak>")
            #expect(SpokenText.ssml("A 6-digit code") == "<speak>A 6-digit code</speak>")
            #expect(SpokenText.ssml("O código") == "<speak>O código</speak>")
        }

        @Test func proseLowercaseLettersAreLeftAlone() {
            #expect(SpokenText.ssml("nove e oito") == "<speak>nove e oito</speak>")
            #expect(SpokenText.ssml("type a code") == "<speak>type a code</speak>")
        }

        @Test func markupCharactersAreEscaped() {
            #expect(SpokenText.ssml("<b> & \"x\"") == "<speak>&lt;b&gt; &amp; &quot;x&quot;</speak>")
        }
    }
}
