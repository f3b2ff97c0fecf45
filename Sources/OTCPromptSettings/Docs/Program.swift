import OTCPromptCore

/// What otc-prompt says about itself, once: `--help`, `--version`, the man page and the completions read it here.
public enum Program {
    public static let name = "otc-prompt"
    public static let usage = "otc-prompt [options] [PROMPT]"
    public static let abstract = "Ask for a one-time code at the terminal, spoken aloud, and print it on stdout."
    /// The one positional argument.
    public static let promptName = "PROMPT"
    public static let promptHelp = "The field's label, shown and spoken (also the askpass prompt argument)."

    /// The paragraphs after the abstract.
    public static let discussion = [
        "The code is one field. Each character is spoken as it is typed or deleted; Ctrl-R reads the whole code "
            + "back. On success the code alone is printed on stdout: code=$(otc-prompt).",
        "Keys: digits (or letters with --charset alnum), Backspace, Ctrl-U clear, Ctrl-R read back, ? help, "
            + "Ctrl-T time left, Ctrl-L redraw, Ctrl-Z stop, Enter submit, Esc or Ctrl-C cancel.",
        "As SSH_ASKPASS or SUDO_ASKPASS it reads the prompt text it is given: a code prompt gets a code field, a "
            + "password prompt a masked free-text field, a confirmation a yes/no question.",
    ]

    /// Every exit status and what it means, in the order of the docs: `ExitStatus.table`'s short meanings.
    public static var exitStatuses: [(status: String, meaning: String)] {
        ExitStatus.table.map { ($0.status, $0.summary) }
    }

    /// The options every program answers besides the settings: (names, help).
    public static let standardOptions: [(short: Character?, long: String, help: String)] = [
        (nil, "version", "Show the version."),
        ("h", "help", "Show this help."),
    ]
}
