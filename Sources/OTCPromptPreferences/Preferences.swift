import OTCPromptCore

/// What a user keeps in their configuration file; each value is nil when the file does not set it.
///
/// The keys are the long option names (`lang = "pt"`, `rate = 320`, `voice = "en-us"`, `verbosity = "terse"`),
/// so a setting reads the same in the file and on the command line, and the command line overrides the file.
public struct Preferences: Equatable, Sendable {
    public var language: Language?
    /// Words per minute, 80–450 (as `--rate`).
    public var rate: Int?
    /// 0–200 (as `--volume`).
    public var volume: Int?
    /// 0–99 (as `--pitch`).
    public var pitch: Int?
    /// Any espeak-ng voice name; whether it is installed is only known when speech starts.
    public var voice: String?
    public var verbosity: Verbosity?
    /// "espeak", "text" or "none" (as `--speech`).
    public var speech: String?
    /// "line" or "boxes" (as `--style`).
    public var style: String?

    public init(
        language: Language? = nil, rate: Int? = nil, volume: Int? = nil, pitch: Int? = nil, voice: String? = nil,
        verbosity: Verbosity? = nil, speech: String? = nil, style: String? = nil
    ) {
        self.language = language
        self.rate = rate
        self.volume = volume
        self.pitch = pitch
        self.voice = voice
        self.verbosity = verbosity
        self.speech = speech
        self.style = style
    }

    public static let rateRange = 80...450
    public static let volumeRange = 0...200
    public static let pitchRange = 0...99
    public static let speechModes = ["espeak", "text", "none"]
    public static let styles = ["line", "boxes"]

    /// Every key the file may hold, in the order the problems list them.
    public static let knownKeys = ["lang", "rate", "voice", "volume", "pitch", "verbosity", "speech", "style"]
}

/// One thing wrong with the configuration file, reported on one line and otherwise ignored.
public struct PreferenceProblem: Equatable, Sendable, CustomStringConvertible {
    /// The file as the user knows it, e.g. "~/.config/otc-prompt/config".
    public var source: String
    /// 1-based; nil when the problem is not tied to a line (an unreadable file).
    public var line: Int?
    /// What is wrong and what happened, e.g. "rate must be a number from 80 to 450; ignored".
    public var message: String

    public init(source: String, line: Int?, message: String) {
        self.source = source
        self.line = line
        self.message = message
    }

    /// "otc-prompt: ~/.config/otc-prompt/config line 3: rate must be a number from 80 to 450; ignored"
    public var description: String {
        if let line { return "otc-prompt: \(source) line \(line): \(message)" }
        return "otc-prompt: \(source): \(message)"
    }
}

extension Preferences {
    /// The values `overrides` sets win; the others come from `self` (the file under the command line).
    public func overridden(by overrides: Preferences) -> Preferences {
        Preferences(
            language: overrides.language ?? language, rate: overrides.rate ?? rate,
            volume: overrides.volume ?? volume, pitch: overrides.pitch ?? pitch, voice: overrides.voice ?? voice,
            verbosity: overrides.verbosity ?? verbosity, speech: overrides.speech ?? speech,
            style: overrides.style ?? style)
    }
}
