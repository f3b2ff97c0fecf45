import OTCPromptCore

/// What the configuration file sets, and everything wrong with it, each problem on its own line.
public struct ConfigFileSettings: Equatable, Sendable {
    /// The file as the user knows it, e.g. "~/.config/otc-prompt/config"; nil when there is no file.
    public var source: String?
    public var values = SettingValues()
    public var problems: [SettingProblem] = []
    /// The line each setting was read from, for later notices about its value (a voice that is not installed).
    public var lines: [String: Int] = [:]

    public init(source: String? = nil) { self.source = source }

    /// Reads a file's text. Never fails: a line that cannot be read, an unknown key or a bad value gives one
    /// problem each, and everything else still applies.
    public static func parse(_ text: String, source: String) -> ConfigFileSettings {
        var settings = ConfigFileSettings(source: source)
        let (entries, syntaxProblems) = ConfigReader.read(text)
        var problems = syntaxProblems.map {
            SettingProblem(source: source, line: $0.line, message: UntrustedText.visible($0.message))
        }
        for entry in entries {
            guard let setting = Settings.all.first(where: { $0.name == entry.key && $0.inConfigFile }) else {
                problems.append(
                    SettingProblem(
                        source: source, line: entry.line,
                        message:
                            "unknown setting \"\(UntrustedText.visible(excerpt(entry.key)))\" (known: \(knownKeys)); ignored"
                    ))
                continue
            }
            // gpg-agent, ssh and sudo start us in directories of their own: a relative name would land anywhere.
            if setting.fileExtensions != nil, case .string(let path) = entry.value, !path.hasPrefix("/") {
                problems.append(
                    SettingProblem(
                        source: source, line: entry.line,
                        message: "\(setting.name) must be a full path, starting with /; ignored"))
                continue
            }
            if let error = setting.apply(entry.value, to: &settings.values) {
                problems.append(SettingProblem(source: source, line: entry.line, message: "\(error); ignored"))
            } else {
                settings.lines[setting.name] = entry.line
            }
        }
        settings.problems = problems.sorted { ($0.line ?? 0, $0.message) < ($1.line ?? 0, $1.message) }
        return settings
    }

    /// "file:line: " for a setting read from the file, to start a notice about its value.
    public func location<Value>(of setting: Setting<Value>) -> String? {
        guard let source, let line = lines[setting.name] else { return nil }
        return "\(source):\(line)"
    }

    /// The keys the file may hold, in the docs' order.
    public static var knownKeys: String {
        Settings.all.filter(\.inConfigFile).map(\.name).joined(separator: ", ")
    }
}

/// One thing wrong with the configuration, reported on one line and otherwise ignored.
public struct SettingProblem: Equatable, Sendable, CustomStringConvertible {
    /// The file as the user knows it, e.g. "~/.config/otc-prompt/config".
    public var source: String
    /// 1-based; nil when the problem is not tied to a line (an unreadable file).
    public var line: Int?
    /// What is wrong and what happened, e.g. "rate must be a number from 80 to 450, not 1000; ignored".
    public var message: String

    public init(source: String, line: Int?, message: String) {
        self.source = source
        self.line = line
        self.message = message
    }

    /// Safe to show: every piece of the file in `message` went through `UntrustedText`.
    /// "otc-prompt: ~/.config/otc-prompt/config:3: rate must be a number from 80 to 450, not 1000; ignored"
    public var description: String {
        if let line { return "otc-prompt: \(source):\(line): \(message)" }
        return "otc-prompt: \(source): \(message)"
    }
}
