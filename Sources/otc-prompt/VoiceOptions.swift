import ArgumentParser
import OTCPromptCore
import OTCPromptPreferences
import OTCPromptSpeech

/// The options that shape the espeak-ng voice.
struct VoiceOptions: ParsableArguments {
    @Option(help: "Any installed espeak-ng voice (espeak-ng --voices lists them). Default: the language's voice.")
    var voice: String?

    @Option(help: "Speech rate in words per minute (80-450).")
    var rate: Int?

    @Option(help: "Volume (0-200, default 100).")
    var volume: Int?

    @Option(help: "Pitch (0-99, default 50).")
    var pitch: Int?

    @Option(
        name: .customLong("audio-file"),
        help: ArgumentHelp(
            "Write the speech to this WAV file instead of the sound device.",
            discussion: "The file contains what is spoken, so it contains the code unless --mask is given."),
        completion: .file(extensions: ["wav"]))
    var audioFile: String?

    func validate() throws {
        if let rate, !(80...450).contains(rate) {
            throw ValidationError("--rate must be between 80 and 450, not \(rate).")
        }
        if let volume, !(0...200).contains(volume) {
            throw ValidationError("--volume must be between 0 and 200, not \(volume).")
        }
        if let pitch, !(0...99).contains(pitch) {
            throw ValidationError("--pitch must be between 0 and 99, not \(pitch).")
        }
    }

    /// The voice settings, from these options where given, else from the saved preferences.
    func speechOptions(language: Language, preferences: Preferences) -> SpeechOptions {
        SpeechOptions(
            language: language, voice: voice ?? preferences.voice, rate: rate ?? preferences.rate,
            volume: volume ?? preferences.volume, pitch: pitch ?? preferences.pitch)
    }
}
