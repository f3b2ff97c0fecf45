import OTCPromptCore
import OTCPromptTestSupport
import Testing

@testable import OTCPromptSpeech

extension SpeechTests {
    @Suite struct EngineTests {
        @Test func theEnglishVoiceLoadedThroughItsFileSpeaksAsTheOneFoundByName() throws {
            // "en" is selected through lang/gmw/en (no listing of every voice); its name through the list.
            let sentence = "Verification code, G 1 A 2, 9 8 5, 3 9 1. Control R reads them back."
            let direct = try withEngine { $0.textToPhonemes(sentence) }
            let listed = try withEngine(SpeechOptions(voice: "English (Great Britain)")) { $0.textToPhonemes(sentence) }
            #expect(!direct.isEmpty)
            #expect(direct == listed)
        }

        @Test func englishDigitsAreReadOneByOneNeverAsANumber() throws {
            let phonemes = try withEngine { $0.textToPhonemes("9 8 5, 3 9 1") }
            #expect(phonemes.contains("n'aIn") && phonemes.contains("f'aIv") && phonemes.contains("w'0n"))
            #expect(!phonemes.contains("h'Vndr") && !phonemes.contains("T'aUz@nd"))
            let asNumber = try withEngine { $0.textToPhonemes("985391") }
            #expect(asNumber.contains("h'Vndr"), "control: unspaced digits are read as a number")
        }

        @Test func portugueseDigitsAreReadOneByOneNeverAsANumber() throws {
            let phonemes = try withEngine(SpeechOptions(language: .ptBR)) { $0.textToPhonemes("9 8 5, 3 9 1") }
            #expect(phonemes.contains("n'Ovy") && phonemes.contains("s'iNkU") && phonemes.contains("'u~N"))
            #expect(!phonemes.contains("m'iw") && !phonemes.contains("n'Oves"))
        }

        @Test(arguments: [
            (Language.en, "dZ,i:", ",eI", "a#"),
            (Language.ptBR, "Z,e", ",a", "maI'uskulU"),
        ])
        func lettersAreSpokenByTheirNames(language: Language, g: String, a: String, wrong: String) throws {
            let phonemes = try withEngine(SpeechOptions(language: language)) {
                $0.spokenPhonemes(of: "\(spelled: "G 1 A 2")")
            }
            #expect(phonemes.contains(g) && phonemes.contains(a), "\(phonemes)")
            #expect(!phonemes.contains(wrong) && !phonemes.contains("k'0m@") && !phonemes.contains("v'irgul"))
        }

        @Test func aLoneLetterAnnouncementIsItsName() throws {
            let english = try withEngine { $0.spokenPhonemes(of: "\(spelled: "A")") }
            #expect(english.contains("eI") && !english.contains("a#"), "\(english)")
        }

        /// Free text keeps case: a lone lower-case letter before a symbol's name was read from flat text
        /// as a word (the article "a", Portuguese "o"); as characters it is the letter.
        @Test(arguments: [
            (Language.en, ["a", "dollar", "b"], "'eI", "a# d'0l3"),
            (Language.ptBR, ["o", "cifrão", "a"], "'O", "U sifR"),
        ])
        func aLoneLowercaseLetterInFreeTextIsItsName(language: Language, group: [String], name: String, word: String)
            throws
        {
            let typed = Utterance.characters([group])
            let (spelled, flat) = try withEngine(SpeechOptions(language: language)) {
                ($0.spokenPhonemes(of: typed), $0.spokenPhonemes(of: Utterance(typed.text)))
            }
            #expect(spelled.hasPrefix(name) && !spelled.contains(word), "\(spelled)")
            #expect(flat.contains(word), "control: as prose it is a word: \(flat)")
        }

        @Test func languagesSelectDifferentVoices() throws {
            let english = try withEngine(SpeechOptions(language: .en)) { $0.textToPhonemes("9") }
            let portuguese = try withEngine(SpeechOptions(language: .ptBR)) { $0.textToPhonemes("9") }
            #expect(english.contains("n'aIn") && portuguese.contains("n'Ovy"))
            let named = try withEngine(SpeechOptions(language: .en, voice: "pt-br")) { $0.textToPhonemes("9") }
            #expect(named == portuguese)
        }

        @Test func anUnknownVoiceIsNamedInTheError() throws {
            #expect(throws: SpeechError.unknownVoice("xx-nonexistent")) {
                try EspeakEngine(options: SpeechOptions(voice: "xx-nonexistent"))
            }
            let backend = EspeakSpeechBackend.start(options: SpeechOptions(voice: "zz")) { _ in RecordingSink() }
            #expect(throws: SpeechError.unknownVoice("zz")) { try backend.waitUntilReady() }
            #expect(
                SpeechError.unknownVoice("zz").description == "unknown voice 'zz': run espeak-ng --voices to list them")
        }

        @Test(arguments: Announcement.Event.allCases)
        func everyKindOfAnnouncementProducesAudio(event: Announcement.Event) throws {
            let samples = try samplesSpoken(Announcement(event, "\(event.rawValue) 4 2, 6 of 6"))
            #expect(samples.count > 0)
            #expect(samples.contains { abs(Int32($0)) > 1000 })
        }

        @Test func aFasterRateGivesShorterAudio() throws {
            let text = Announcement(.readback, "9 8 5, 3 9 1, 6 of 6")
            let normal = try samplesSpoken(text, options: SpeechOptions(rate: 175))
            let fast = try samplesSpoken(text, options: SpeechOptions(rate: 350))
            #expect(fast.count > 0 && fast.count < normal.count * 3 / 4)
        }

        @Test func trailingSilenceIsTrimmed() throws {
            let samples = try samplesSpoken(Announcement(.digit, "9"))
            let tail = samples.suffix(64)
            #expect(tail.count == 64 && tail.last.map { abs(Int32($0)) > Int32(SilenceTrimmer.threshold) } == true)
        }
    }
}
