import ArgumentParser
import OTCPromptCore
import OTCPromptTerminal

/// The command line: options in, a `PromptProgram` run, an exit status out.
@main
struct OTCPromptCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "otc-prompt",
        abstract: "Ask for a one-time code at the terminal, spoken aloud, and print it on stdout.",
        discussion: """
            The code is one field. Each character is spoken as it is typed or deleted; Ctrl-R reads \
            the whole code back. On success the code alone is printed on stdout: code=$(otc-prompt).

            Keys: digits (or letters with --charset alnum), Backspace, Ctrl-U clear, Ctrl-R read back, \
            ? help, Enter submit, Esc or Ctrl-C cancel.

            Exit status: 0 submitted, 64 usage error, 74 no terminal, 130 cancelled.
            """,
        version: OTCPromptVersion.current
    )

    @Argument(help: "The field's label, shown and spoken (also the askpass prompt argument).")
    var prompt: String?

    @Option(name: [.customShort("n"), .long], help: "How many characters the code has (1-12).")
    var length: Int = 6

    @Option(help: "Which characters the code may contain: digits, or alnum (letters are upper-cased).")
    var charset: CharsetOption = .digits

    @Flag(help: "Secure entry: characters are never shown or spoken, only counted.")
    var mask = false

    @Flag(name: .customLong("no-auto-submit"), help: "Wait for Enter instead of submitting when the field is full.")
    var noAutoSubmit = false

    @Option(help: "Language of the prompt: en or pt (default: from LC_ALL, LC_MESSAGES, LANG).")
    var lang: Language?

    @Option(help: "How announcements reach you: espeak (spoken), text (one line each, for braille and screen readers), none.")
    var speech: SpeechMode = .espeak

    @Option(name: .customLong("speech-log"), help: ArgumentHelp(
        "Append every announcement to this file as JSON Lines.",
        discussion: "The log contains what is spoken, so it contains the code unless --mask is given."),
        completion: .file())
    var speechLog: String?

    @Option(help: "terse (no hints), normal or verbose.")
    var verbosity: Verbosity = .normal

    @OptionGroup(title: "Voice")
    var voice: VoiceOptions

    @OptionGroup(title: "Appearance")
    var appearance: AppearanceOptions

    func validate() throws {
        guard PromptConfiguration.lengthRange.contains(length) else {
            throw ValidationError("--length must be between 1 and 12, not \(length).")
        }
        try voice.validate()
        try appearance.validate()
    }

    func run() throws {
        let environment = ProcessEnvironment.current
        let language = lang ?? Language.fromEnvironment(environment)
        let configuration = PromptConfiguration(
            label: prompt.map(PromptLabel.trimmed), length: length, charset: charset.codeCharset, mask: mask,
            autoSubmit: !noAutoSubmit, language: language, verbosity: verbosity)
        let program = PromptProgram(
            configuration: configuration, speechMode: speech, speechLogPath: speechLog,
            voice: voice.speechOptions(language: language), audioFile: voice.audioFile,
            appearance: appearance, environment: environment)
        // Every path inside `run()` has restored the terminal before it returns.
        let status = program.run()
        if status != 0 { throw ExitCode(status) }
    }
}

/// The charsets the command line offers.
enum CharsetOption: String, ExpressibleByArgument, CaseIterable {
    case digits, alnum

    var codeCharset: CodeCharset {
        switch self {
        case .digits: return .digits
        case .alnum: return .alnum
        }
    }
}

/// How announcements reach the user.
enum SpeechMode: String, ExpressibleByArgument, CaseIterable {
    case espeak, text, none
}

extension Language: ExpressibleByArgument {}
extension Verbosity: ExpressibleByArgument {}
