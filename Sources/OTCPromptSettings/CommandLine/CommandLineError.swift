import OTCPromptCore

/// What is wrong with the command line (exit status 64); the description names the option and what it takes.
public enum CommandLineError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownOption(String, suggestion: String?)
    /// `--label`, `--prompt` and the like, which other prompts have: here the label is the PROMPT argument.
    case labelAsOption(String)
    case missingValue(option: String, valueName: String)
    case invalidValue(String, option: String, problem: SettingError)
    case flagWithValue(option: String)
    case unexpectedArgument(String)

    /// One line, without the program's name; every argument it quotes is made visible by `UntrustedText`.
    public var description: String {
        switch self {
        case .unknownOption(let option, let suggestion):
            let hint = suggestion.map { "; did you mean '\($0)'?" } ?? ""
            return "unknown option '\(quoted(option))'\(hint)"
        case .labelAsOption(let option):
            return
                "'\(quoted(option))' is not an option: the label is PROMPT, given alone, as in \(Program.name) 'Bank code'"
        case .missingValue(let option, let valueName):
            return
                "'\(option)' needs a value, as in \(option) \(valueName) (or \(option)=\(valueName) when it starts with -)"
        case .invalidValue(let value, let option, let problem):
            return "the value '\(quoted(value))' is invalid for '\(option)': it \(problem.description)"
        case .flagWithValue(let option):
            return "'\(option)' takes no value: write \(option) alone"
        case .unexpectedArgument(let argument):
            return "unexpected argument '\(quoted(argument))': only one PROMPT is read (quote a label with spaces)"
        }
    }

    /// The line otc-prompt writes to stderr: the problem and where to look.
    public var message: String {
        "\(Program.name): \(description)\nUsage: \(Program.usage); \(Program.name) --help lists the options."
    }

    private func quoted(_ argument: String) -> String {
        UntrustedText.visible(excerpt(argument, limit: 80))
    }
}
