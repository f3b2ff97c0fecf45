import OTCPromptCore

/// One setting, declared once: its option name, its values, its default and its help drive the command line,
/// the configuration file, the error messages and the docs' option tables.
public struct Setting<Value: Hashable & Sendable>: Sendable {
    /// The long option without dashes, and the key in the configuration file.
    public let name: String
    public let shortName: Character?
    /// The heading the option is listed under.
    public let group: SettingGroup
    /// What it does, one sentence (markdown: `code` and **bold**).
    public let summary: String
    /// Anything more the user guide and `--help` should say (markdown), or nil.
    public let details: String?
    public let domain: SettingDomain<Value>
    /// What applies when neither the command line nor the file sets it; nil when it is decided elsewhere (the
    /// locale, the terminal) and `defaultNote` says how.
    public let defaultValue: Value?
    public let defaultNote: String?
    /// Whether the configuration file may set it.
    public let inConfigFile: Bool

    public init(
        _ name: String, short: Character? = nil, group: SettingGroup, _ summary: String, details: String? = nil,
        domain: SettingDomain<Value>, default defaultValue: Value? = nil, defaultNote: String? = nil,
        inConfigFile: Bool = false
    ) {
        self.name = name
        self.shortName = short
        self.group = group
        self.summary = summary
        self.details = details
        self.domain = domain
        self.defaultValue = defaultValue
        self.defaultNote = defaultNote
        self.inConfigFile = inConfigFile
    }

    /// The value of a command-line argument, or what it must be (`CommandLineError` names the option and the value).
    public func parseArgument(_ text: String) -> Result<Value, SettingError> {
        guard let value = domain.fromText(text) else { return .failure(SettingError("must be \(domain.allowed)")) }
        return .success(value)
    }

    /// The value of a file entry, or what is wrong with it (quoted numbers get their own hint).
    public func parseFileValue(_ value: ConfigValue) -> Result<Value, SettingError> {
        if let parsed = domain.parse(file: value) { return .success(parsed) }
        if domain.fileType == .integer, case .string(let text) = value, let number = Int(text),
            domain.fromText(text) != nil
        {
            return .failure(SettingError("\(name) must be a number without quotes, e.g. \(name) = \(number)"))
        }
        return .failure(SettingError("\(name) must be \(domain.allowed), not \(ConfigValueText(value))"))
    }

    /// The default as the docs show it ("6", "digits"), or the note.
    public var defaultDescription: String? {
        defaultValue.map(domain.describe) ?? defaultNote
    }
}

/// What is wrong with a value, in one line, without the program's name.
public struct SettingError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// The headings of `--help` and of the user guide's option tables, in their order.
public enum SettingGroup: String, CaseIterable, Sendable {
    case general, logins, voice, appearance

    public var title: String {
        switch self {
        case .general: return "General"
        case .logins: return "Logins and scripts"
        case .voice: return "Voice (espeak-ng)"
        case .appearance: return "Appearance"
        }
    }
}

/// A file value as the user wrote it, for messages.
struct ConfigValueText: CustomStringConvertible {
    let value: ConfigValue
    init(_ value: ConfigValue) { self.value = value }

    var description: String {
        switch value {
        case .string(let text): return "\"\(UntrustedText.visible(excerpt(text, limit: 40)))\""
        case .integer(let number): return String(number)
        case .boolean(let flag): return String(flag)
        }
    }
}
