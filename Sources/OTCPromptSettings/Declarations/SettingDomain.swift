/// The values a setting takes: how they are written, how they are read, and how a message names them.
public struct SettingDomain<Value: Hashable & Sendable>: Sendable {
    /// The placeholder in `--help` and the docs: "N", "en|pt", "PATH".
    public let valueName: String
    /// What a valid value is, completing "--rate must be …": "a number from 80 to 450".
    public let allowed: String
    /// The values one may choose from, for completions and the docs; nil when not a choice.
    public let choices: [String]?
    /// What a file value must be written as.
    public let fileType: FileType
    /// For a file name: the extensions shell completion offers ([] for any file); nil when not a file name.
    public private(set) var fileExtensions: [String]? = nil
    let fromText: @Sendable (String) -> Value?
    let describe: @Sendable (Value) -> String

    /// The kinds of value the configuration file holds.
    public enum FileType: Sendable { case string, integer, boolean }

    public init(
        valueName: String, allowed: String, choices: [String]? = nil, fileType: FileType = .string,
        fromText: @escaping @Sendable (String) -> Value?, describe: @escaping @Sendable (Value) -> String
    ) {
        self.valueName = valueName
        self.allowed = allowed
        self.choices = choices
        self.fileType = fileType
        self.fromText = fromText
        self.describe = describe
    }

    /// A value from the configuration file: it must have the file type, then the same rule as the command line.
    func parse(file value: ConfigValue) -> Value? {
        switch (fileType, value) {
        case (.string, .string(let text)): return fromText(text)
        case (.integer, .integer(let number)): return fromText(String(number))
        case (.boolean, .boolean(let flag)): return fromText(String(flag))
        default: return nil
        }
    }
}

extension SettingDomain where Value == Int {
    /// A whole number in `range`.
    public static func integer(_ range: ClosedRange<Int>, valueName: String = "N") -> SettingDomain {
        SettingDomain(
            valueName: valueName, allowed: "a number from \(range.lowerBound) to \(range.upperBound)",
            fileType: .integer, fromText: { Int($0).flatMap { range.contains($0) ? $0 : nil } },
            describe: { String($0) })
    }
}

extension SettingDomain where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
    /// One of the enumeration's raw values, in any case; `alias` reads other spellings (e.g. "pt-BR").
    public static func choice(alias: (@Sendable (String) -> Value?)? = nil) -> SettingDomain {
        let names = Value.allCases.map(\.rawValue)
        let quoted = names.map { "\"\($0)\"" }
        let allowed =
            quoted.count <= 2
            ? quoted.joined(separator: " or ")
            : quoted.dropLast().joined(separator: ", ") + " or " + quoted.last!
        return SettingDomain(
            valueName: names.joined(separator: "|"), allowed: allowed, choices: names,
            fromText: { text in Value(rawValue: text.lowercased()) ?? alias?(text) }, describe: \.rawValue)
    }
}

extension SettingDomain where Value == String {
    /// Free text that `isValid` accepts.
    public static func text(
        valueName: String, allowed: String, isValid: @escaping @Sendable (String) -> Bool = { !$0.isEmpty }
    ) -> SettingDomain {
        SettingDomain(
            valueName: valueName, allowed: allowed, fromText: { isValid($0) ? $0 : nil }, describe: { $0 })
    }
}

extension SettingDomain where Value == String {
    /// A file name; completion offers files with `extensions` (any file when empty).
    public static func path(extensions: [String] = []) -> SettingDomain {
        var domain = SettingDomain.text(valueName: "PATH", allowed: "a file name")
        domain.fileExtensions = extensions
        return domain
    }
}

extension SettingDomain where Value == Duration {
    /// Seconds, with decimals, that are at least a millisecond once rounded and at most `maximum`.
    public static func seconds(maximum: Int = 86_400) -> SettingDomain {
        SettingDomain(
            valueName: "SECONDS", allowed: "a number of seconds from 0.001 to \(maximum)",
            fromText: { text in
                guard let seconds = Double(text), seconds.isFinite, seconds <= Double(maximum) else { return nil }
                let milliseconds = (seconds * 1000).rounded()
                return milliseconds >= 1 ? .milliseconds(Int64(milliseconds)) : nil
            },
            describe: { duration in
                let (seconds, attoseconds) = duration.components
                let milliseconds = attoseconds / 1_000_000_000_000_000
                return milliseconds == 0 ? String(seconds) : String(Double(seconds) + Double(milliseconds) / 1000)
            })
    }
}

extension SettingDomain where Value == Bool {
    /// On when given (a command-line flag; `true` or `false` in the file).
    public static var flag: SettingDomain {
        SettingDomain(
            valueName: "", allowed: "true or false", fileType: .boolean, fromText: { Bool($0) },
            describe: { String($0) })
    }
}
