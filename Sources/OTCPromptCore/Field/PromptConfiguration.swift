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
    /// How letters are said (`--spell`); digits are digits either way.
    public var spelling: Spelling = .plain
    /// A code of exactly `length` characters, or free text (askpass password prompts), where
    /// `length` is a maximum and Enter submits.
    public var kind: FieldKind
    /// `--check`: a submitted code goes to the check (`PromptEffect.check`) before it is accepted.
    public var checksCode: Bool
    /// `--attempts`: how many codes the check may reject before the prompt fails (at least 1).
    public var attempts: Int
    /// `--timeout`: how long the user has, from the start; nil for no limit.
    public var timeLimit: Duration?
    /// Lines an askpass caller sent before its question (PAM's instructions, a key's fingerprint):
    /// said before the label, in reading order, and drawn above the field.
    public var details: [String] = []
    /// The caller's own words behind a label of ours (sudo's "password for joe" behind "Sudo password"): drawn above
    /// the field with the details, said only when Ctrl-R asks before anything is typed.
    public var aboutOnRequest: [String] = []
    /// What changed since the caller last asked (pinentry's SETERROR, "Bad Passphrase (try 2 of 3)"):
    /// said first, before the label; the details then follow the field's hint instead of leading.
    public var news: [String] = []
    /// How many of the first `news` are said once, with the opening, and left out of a readback: they were news
    /// then ("Request withdrawn."), not what is true now.
    public var newsSaidOnce = 0

    public static let lengthRange = 1...12
    /// The most a free-text secret holds: far beyond any password typed by hand, small enough
    /// that a runaway paste or a stuck key does not grow without bound.
    public static let freeTextMaxLength = 256
    public static let defaultAttempts = 3

    public init(
        label: String? = nil, length: Int = 6, charset: CodeCharset = .digits, mask: Bool = false,
        autoSubmit: Bool = true, language: Language = .en, verbosity: Verbosity = .normal,
        kind: FieldKind = .code, checksCode: Bool = false, attempts: Int = defaultAttempts,
        timeLimit: Duration? = nil
    ) {
        self.label = label ?? Wording(language: language).defaultLabel
        self.length = length
        self.charset = charset
        self.mask = mask
        self.autoSubmit = autoSubmit
        self.language = language
        self.verbosity = verbosity
        self.kind = kind
        self.checksCode = checksCode
        self.attempts = max(1, attempts)
        self.timeLimit = timeLimit
    }

    /// A free-text field (askpass password or user-name prompts): any printable character,
    /// up to `freeTextMaxLength`, Enter submits. `mask` false only for text that is not secret.
    public static func freeText(
        label: String? = nil, mask: Bool = true, language: Language = .en, verbosity: Verbosity = .normal,
        checksCode: Bool = false, attempts: Int = defaultAttempts, timeLimit: Duration? = nil
    ) -> PromptConfiguration {
        PromptConfiguration(
            label: label, length: freeTextMaxLength, charset: .any, mask: mask, autoSubmit: false,
            language: language, verbosity: verbosity, kind: .freeText, checksCode: checksCode,
            attempts: attempts, timeLimit: timeLimit)
    }
}
