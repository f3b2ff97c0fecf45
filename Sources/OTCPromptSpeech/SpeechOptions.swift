import OTCPromptCore

/// How the espeak-ng voice sounds: the language's voice unless one is named, and the user's rate.
public struct SpeechOptions: Equatable, Sendable {
    public var language: Language
    /// An installed espeak-ng voice (`espeak-ng --voices`); nil means the language's default voice.
    public var voice: String?
    /// Words per minute (`Settings.rate`); nil keeps espeak-ng's default (175).
    public var rate: Int?
    /// `Settings.volume`; nil keeps espeak-ng's default (100).
    public var volume: Int?
    /// `Settings.pitch`; nil keeps espeak-ng's default (50).
    public var pitch: Int?
    /// The user chose `language` (`--lang` or the config file) rather than the locale deciding: only then is a
    /// speech server that has the user's own settings told the language.
    public var languageIsChosen = false

    public init(language: Language = .en, voice: String? = nil, rate: Int? = nil, volume: Int? = nil, pitch: Int? = nil)
    {
        self.language = language
        self.voice = voice
        self.rate = rate
        self.volume = volume
        self.pitch = pitch
    }

    /// The voice espeak-ng is asked for: the named one, else the language's own.
    public var voiceName: String {
        voice ?? language.espeakVoice
    }
}
