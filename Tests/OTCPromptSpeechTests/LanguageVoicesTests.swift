import Foundation
import OTCPromptCore
import OTCPromptTestSupport
import Testing

@testable import OTCPromptSpeech

extension SpeechTests {
    /// Each registered language's voice reads a code back in that language's digit words, as the
    /// espeak-ng command reads them with the voice its catalog names (`espeak-ng -v VOICE -x -q 9`).
    @Suite struct LanguageVoicesTests {
        /// The phonemes the espeak-ng command gives for `text`, without its pause marks.
        static func commandPhonemes(voice: String, _ text: String) throws -> String {
            let process = try SpawnedProgram(
                "/usr/bin/espeak-ng", ["-v", voice, "-x", "-q", text], environment: ProcessInfo.processInfo.environment)
            _ = process.waitForExit(deadline: .seconds(30))
            process.waitForOutput()
            return process.output.filter { !"_|\n ".contains($0) }
        }

        @Test(arguments: Language.allCases)
        func theReadBackIsSaidInTheLanguagesDigitWords(language: Language) throws {
            let spoken = try withEngine(SpeechOptions(language: language)) {
                $0.spokenPhonemes(of: "\(spelled: "9 8 5, 3 9 1")")
            }
            for digit in ["9", "5"] {
                let own = try Self.commandPhonemes(voice: language.espeakVoice, digit)
                let english = try Self.commandPhonemes(voice: Language.en.espeakVoice, digit)
                #expect(!own.isEmpty && spoken.contains(own), "\(language): \(digit) is \(own) in \(spoken)")
                if language != .en {
                    #expect(own != english && !spoken.contains(english), "\(language): \(digit) said in English")
                }
            }
        }
    }
}
