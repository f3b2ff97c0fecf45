import ArgumentParser
import OTCPromptSettings

/// The options that shape the espeak-ng voice.
struct VoiceOptions: ParsableArguments {
    @Option(Settings.voice) var voice: String?
    @Option(Settings.rate) var rate: Int?
    @Option(Settings.volume) var volume: Int?
    @Option(Settings.pitch) var pitch: Int?
    @Option(Settings.audioFile) var audioFile: String?

    func add(to values: inout SettingValues) {
        values.set(Settings.voice, voice)
        values.set(Settings.rate, rate)
        values.set(Settings.volume, volume)
        values.set(Settings.pitch, pitch)
        values.set(Settings.audioFile, audioFile)
    }
}
