import ArgumentParser
import OTCPromptCore
import OTCPromptPreferences
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
            ? help, Ctrl-T time left, Ctrl-L redraw, Ctrl-Z stop, Enter submit, Esc or Ctrl-C cancel.

            As SSH_ASKPASS or SUDO_ASKPASS it reads the prompt text it is given: a code prompt gets a \
            code field, a password prompt a masked free-text field, a confirmation a yes/no question.

            Exit status: 0 submitted, 1 rejected by --check or answered no, 64 usage error, \
            65 --stdin got no valid code, 69 the --check command could not run, 74 no terminal or stdout \
            unwritable, 124 timed out, \
            130 cancelled, 128+N ended by signal N.
            """,
        version: OTCPromptVersion.current
    )

    /// Reads the command line (a caller's prompt only ever as data: `AskpassArguments`), runs, and exits.
    ///
    /// ArgumentParser's own `main` would echo an argument in an error message as it is: here every message goes
    /// through `StandardError.writeLine`, which makes it visible, so no escape sequence reaches the terminal.
    static func main() {
        let arguments = AskpassArguments.forParsing(
            Array(CommandLine.arguments.dropFirst()), environment: ProcessEnvironment.current,
            programPath: CommandLine.arguments.first ?? "", standardOutputIsTerminal: StandardOutput.isTerminal)
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch {
            let message = fullMessage(for: error)
            let status = exitCode(for: error)
            if !message.isEmpty {
                if status.isSuccess {
                    try? StandardOutput.write(UntrustedText.visibleLines(message).joined(separator: "\n"))
                } else {
                    StandardError.writeLine(message)
                }
            }
            exit(withError: ExitCode(status.rawValue))
        }
    }

    @Argument(help: "The field's label, shown and spoken (also the askpass prompt argument).")
    var prompt: String?

    @Option(name: [.customShort("n"), .long], help: "How many characters the code has (1-12).")
    var length: Int = 6

    @Option(help: "digits; alnum (letters are upper-cased); or any (a masked free-text secret, Enter submits).")
    var charset: CharsetOption = .digits

    @Flag(help: "Secure entry: characters are never shown or spoken, only counted.")
    var mask = false

    @Flag(name: .customLong("no-auto-submit"), help: "Wait for Enter instead of submitting when the field is full.")
    var noAutoSubmit = false

    @Option(help: "Language of the prompt: en or pt (default: from LC_ALL, LC_MESSAGES, LANG).")
    var lang: Language?

    @Option(
        help:
            "How announcements reach you: espeak (spoken, the default), speechd (through your speech-dispatcher), text (one line each, for braille and screen readers), none."
    )
    var speech: SpeechMode?

    @Option(
        name: .customLong("speech-log"),
        help: ArgumentHelp(
            "Append every announcement to this file as JSON Lines.",
            discussion: "The log contains what is spoken, so it contains the code unless --mask is given."),
        completion: .file())
    var speechLog: String?

    @Option(help: "terse (no hints), normal (the default) or verbose.")
    var verbosity: Verbosity?

    @Flag(
        help: ArgumentHelp(
            "Be GnuPG's pinentry: speak the Assuan protocol on stdin and stdout.",
            discussion: "Also when run as pinentry-otc. In gpg-agent.conf: pinentry-program /usr/local/bin/pinentry-otc"
        ))
    var pinentry = false

    @OptionGroup(title: "Logins and scripts")
    var login: LoginOptions

    @OptionGroup(title: "Voice")
    var voice: VoiceOptions

    @OptionGroup(title: "Appearance")
    var appearance: AppearanceOptions

    func validate() throws {
        guard PromptConfiguration.lengthRange.contains(length) else {
            throw ValidationError("--length must be between 1 and 12, not \(length).")
        }
        try login.validate()
        try voice.validate()
        try appearance.validate()
    }

    func run() throws {
        // Before anything can hold the code: no core dumps, and fds 0-2 taken so that a closed
        // stdout can never become the terminal.
        ProcessHardening.reserveStandardDescriptors()
        ProcessHardening.disableCoreDumps()
        ProcessHardening.ignoreBrokenPipe()
        let environment = ProcessEnvironment.current
        let (saved, problems) = Preferences.load(environment: environment) { path in
            try ConfigFile.readText(path: path)
        }
        let preferences = saved.overridden(by: commandLinePreferences)
        let language = preferences.language ?? Language.fromEnvironment(environment)
        let verbosity = preferences.verbosity ?? .normal
        let label = prompt.map(PromptLabel.trimmed).flatMap { $0.isEmpty ? nil : $0 }
        let configuration = PromptConfiguration(
            label: label, length: length, charset: charset.codeCharset, mask: mask, autoSubmit: !noAutoSubmit,
            language: language, verbosity: verbosity, checksCode: login.check != nil, attempts: login.attempts,
            timeLimit: login.timeLimit)
        let asPinentry = pinentry || PinentryInvocation.isPinentryName(CommandLine.arguments.first ?? "")
        if login.stdin && !asPinentry {
            for problem in problems { StandardError.writeLine(problem.description) }
            let status = StandardInputCode.run(configuration: configuration, check: login.checkSettings)
            if status != 0 { throw ExitCode(status) }
            return
        }
        var appearance = appearance
        appearance.style = appearance.style ?? preferences.style.flatMap(FieldStyle.init(rawValue:))
        let memory = AskMemory(store: StateDirectory.open(environment: environment))
        var request = request(configuration, environment: environment)
        if case .code(var field, askpass: true) = request, let prompt, memory.isAskedAgain(prompt) {
            field.details.insert(Wording(language: language).previousAnswerNotAccepted, at: 0)
            request = .code(field, askpass: true)
        }
        let program = PromptProgram(
            request: request, check: login.checkSettings,
            speechMode: preferences.speech.flatMap(SpeechMode.init(rawValue:)) ?? .espeak,
            speechLogPath: speechLog, voice: voice.speechOptions(language: language, preferences: preferences),
            audioFile: voice.audioFile, appearance: appearance, environment: environment,
            notices: problems.map(\.description), memory: memory)
        // Every path inside `run()` has restored the terminal before it returns.
        if asPinentry {
            let status = PinentryProgram(template: program, language: language, verbosity: verbosity).run()
            if status != 0 { throw ExitCode(status) }
            return
        }
        let status = program.run()
        if case .code(_, askpass: true) = request, let prompt {
            memory.remember(prompt, answered: status == ExitStatus.submitted)
        }
        if status != 0 { throw ExitCode(status) }
    }
}

extension OTCPromptCommand {
    /// What to ask: the code field the options describe, or, when called as SSH_ASKPASS or
    /// SUDO_ASKPASS, what the prompt text asks for.
    func request(_ configuration: PromptConfiguration, environment: [String: String]) -> PromptRequest {
        // `main` has already turned an askpass call into `--askpass -- PROMPT`.
        guard let prompt, login.askpass else {
            return charset == .any
                ? .code(freeText(configuration, label: configuration.label, mask: true), askpass: false)
                : .code(configuration, askpass: false)
        }
        let askpass = AskpassPrompt.classify(prompt, environment: environment)
        var field: PromptConfiguration
        switch askpass.kind {
        case .code:
            field = configuration
            field.label = askpass.label
        case .secret:
            field = freeText(configuration, label: askpass.label, mask: true)
        case .text:
            field = freeText(configuration, label: askpass.label, mask: false)
        case .notification:
            return .notice(
                NoticeSession(
                    message: askpass.label, details: askpass.details, language: configuration.language,
                    verbosity: configuration.verbosity, timeLimit: configuration.timeLimit))
        case .confirmation:
            return .question(
                ConfirmSession(
                    question: askpass.label, details: askpass.details, acceptsFingerprint: askpass.acceptsFingerprint,
                    language: configuration.language, verbosity: configuration.verbosity,
                    timeLimit: configuration.timeLimit))
        }
        field.details = askpass.details
        return .code(field, askpass: true)
    }

    private func freeText(_ configuration: PromptConfiguration, label: String, mask: Bool) -> PromptConfiguration {
        .freeText(
            label: label, mask: mask, language: configuration.language, verbosity: configuration.verbosity,
            checksCode: configuration.checksCode, attempts: configuration.attempts,
            timeLimit: configuration.timeLimit)
    }

    /// What the command line says about the settings a config file may also hold; what it says wins.
    var commandLinePreferences: Preferences {
        Preferences(
            language: lang, rate: voice.rate, volume: voice.volume, pitch: voice.pitch, voice: voice.voice,
            verbosity: verbosity, speech: speech?.rawValue, style: appearance.style?.rawValue)
    }
}

/// How gpg-agent's pinentry-program runs us: a program named pinentry-otc is a pinentry.
enum PinentryInvocation {
    static func isPinentryName(_ programPath: String) -> Bool {
        programPath.split(separator: "/").last == "pinentry-otc"
    }
}

/// The charsets the command line offers.
enum CharsetOption: String, ExpressibleByArgument, CaseIterable {
    case digits, alnum, any

    var codeCharset: CodeCharset {
        switch self {
        case .digits: return .digits
        case .alnum: return .alnum
        case .any: return .any
        }
    }
}

/// How announcements reach the user.
enum SpeechMode: String, ExpressibleByArgument, CaseIterable {
    case espeak, speechd, text, none
}

extension Language: ExpressibleByArgument {}
extension Verbosity: ExpressibleByArgument {}
