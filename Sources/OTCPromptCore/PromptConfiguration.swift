/// The language of the prompt's words.
public enum Language: String, Sendable, CaseIterable {
    case en, pt

    /// The language named by LC_ALL, LC_MESSAGES or LANG (first one set and non-empty), else English.
    public static func fromEnvironment(_ environment: [String: String]) -> Language {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            guard let value = environment[name], !value.isEmpty else { continue }
            return value.lowercased().hasPrefix("pt") ? .pt : .en
        }
        return .en
    }
}

/// How much the prompt says beyond the essentials.
public enum Verbosity: String, Sendable, CaseIterable {
    /// No hints: for experienced users who turn hints off, as in VoiceOver.
    case terse
    case normal
    /// Hints, and the field's state after each change.
    case verbose
}

/// Everything that shapes one prompt session; built from the command line.
public struct PromptConfiguration: Equatable, Sendable {
    /// The field's label, shown and spoken.
    public var label: String
    /// How many characters the code has (1...12).
    public var length: Int
    public var charset: CodeCharset
    /// Secure entry: characters are never shown or spoken, only counts.
    public var mask: Bool
    /// Submit as soon as the field is full (the seeds' close-when-done / onCompletion).
    public var autoSubmit: Bool
    public var language: Language
    public var verbosity: Verbosity

    public static let lengthRange = 1...12

    public init(
        label: String? = nil, length: Int = 6, charset: CodeCharset = .digits, mask: Bool = false,
        autoSubmit: Bool = true, language: Language = .en, verbosity: Verbosity = .normal
    ) {
        self.label = label ?? Wording(language: language).defaultLabel
        self.length = length
        self.charset = charset
        self.mask = mask
        self.autoSubmit = autoSubmit
        self.language = language
        self.verbosity = verbosity
    }
}
