/// What the command line asks for: the prompt with the settings it gives, the help, or the version.
public struct ParsedCommandLine: Equatable, Sendable {
    public enum Action: Equatable, Sendable { case run, help, version }

    public var action: Action = .run
    /// Every setting the command line gives; it wins over the file.
    public var values = SettingValues()
    /// The one positional argument: the field's label, or the askpass prompt.
    public var prompt: String?

    public init(action: Action = .run, values: SettingValues = SettingValues(), prompt: String? = nil) {
        self.action = action
        self.values = values
        self.prompt = prompt
    }
}

/// Reads otc-prompt's arguments against the declared settings: `--name value`, `--name=value`, `-n 6`, `-n=6`,
/// `-n6`, flags, `--` ending the options, one optional PROMPT, `-h`/`--help` and `--version`.
///
/// A value given as a separate argument may not start with "-" (unless it is "-" itself): `--check --mask` is a
/// missing value, not a command called "--mask". Write `--check=-x` for such a value. A setting given twice
/// takes its last value.
public enum CommandLineParser {
    /// The names `--help` and `--version` answer to, beside the settings.
    static let helpNames: Set<String> = ["-h", "--help"]
    static let versionName = "--version"

    /// The settings the command line offers, by `--name` and by `-c`.
    static let options: [String: any AnySetting] = {
        var table: [String: any AnySetting] = [:]
        for setting in Settings.all {
            table["--" + setting.name] = setting
            if let short = setting.shortName { table["-" + String(short)] = setting }
        }
        return table
    }()

    /// The request the arguments (after the program's name) make, or the first thing wrong with them.
    public static func parse(_ arguments: [String]) -> Result<ParsedCommandLine, CommandLineError> {
        var parsed = ParsedCommandLine()
        var positionals: [String] = []
        var error: CommandLineError?
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                positionals += arguments[index...]
                break
            }
            guard argument.hasPrefix("-"), argument != "-" else {
                positionals.append(argument)
                continue
            }
            let (name, attached) = split(argument)
            if helpNames.contains(name) || name == versionName {
                if attached != nil, error == nil { error = .flagWithValue(option: name) }
                parsed.action = name == versionName && parsed.action != .help ? .version : .help
                continue
            }
            guard let setting = options[name] else {
                if error == nil {
                    error =
                        labelNames.contains(name.lowercased())
                        ? .labelAsOption(argument) : .unknownOption(argument, suggestion: suggestion(for: name))
                }
                continue
            }
            if setting.isFlag {
                if attached != nil, error == nil { error = .flagWithValue(option: name) }
                _ = setting.apply(argument: "true", to: &parsed.values)
                continue
            }
            var value = attached
            if value == nil, index < arguments.endIndex, !looksLikeOption(arguments[index]) {
                value = arguments[index]
                index += 1
            }
            guard let value, !value.isEmpty else {
                if error == nil { error = .missingValue(option: "--" + setting.name, valueName: setting.valueName) }
                continue
            }
            if let problem = setting.apply(argument: value, to: &parsed.values), error == nil {
                error = .invalidValue(value, option: "--" + setting.name, problem: problem)
            }
        }
        // Help and the version are answered whatever else is wrong, as a person asking for help expects.
        if parsed.action != .run { return .success(parsed) }
        if let error { return .failure(error) }
        if positionals.count > 1 { return .failure(.unexpectedArgument(positionals[1])) }
        parsed.prompt = positionals.first
        return .success(parsed)
    }

    /// "--rate=300" as ("--rate", "300"), "-n6" and "-n=6" as ("-n", "6"), "--mask" as ("--mask", nil).
    static func split(_ argument: String) -> (name: String, value: String?) {
        if argument.hasPrefix("--") {
            guard let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
            return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
        }
        let name = String(argument.prefix(2))
        var rest = argument.dropFirst(2)
        guard !rest.isEmpty else { return (name, nil) }
        if rest.first == "=" { rest = rest.dropFirst() }
        return (name, String(rest))
    }

    /// Whether a separate argument is an option rather than a value ("-" alone is a value).
    static func looksLikeOption(_ argument: String) -> Bool {
        argument.hasPrefix("-") && argument != "-"
    }

    /// The declared option an unknown `name` most likely meant: another case, a prefix, or one or two typos away.
    /// What other prompts call their label option (pinentry's SETPROMPT, zenity's --text, gum's --prompt).
    static let labelNames: Set<String> = ["--label", "--prompt", "--title", "--text", "--message", "--description"]

    static func suggestion(for name: String) -> String? {
        guard name.hasPrefix("--"), name.count > 3 else { return nil }
        let known = Settings.all.map { "--" + $0.name } + ["--help", versionName]
        let lowered = name.lowercased()
        if let match = known.first(where: { $0 == lowered }) { return match }
        let prefixed = known.filter { $0.hasPrefix(lowered) }
        if prefixed.count == 1 { return prefixed[0] }
        let scored = known.map { ($0, editDistance(lowered, $0)) }.filter { $0.1 <= 2 }
        return scored.min { $0.1 < $1.1 }?.0 ?? prefixed.first
    }

    /// Levenshtein distance over characters; names are short, so the plain table is fine.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
