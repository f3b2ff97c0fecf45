import ArgumentParser
import OTCPromptCore
import OTCPromptLoop
import OTCPromptSettings
import OTCPromptSpeech
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
            unwritable, 124 timed out, 130 cancelled, 128+N ended by signal N.
            """,
        version: OTCPromptVersion.current
    )

    /// Reads the command line (a caller's prompt only ever as data: `AskpassArguments`), runs, and exits.
    ///
    /// ArgumentParser's own `main` would echo an argument in an error message as it is: here every message goes
    /// through `StandardError.writeLine`, which makes it visible, so no escape sequence reaches the terminal.
    static func main() {
        EngineWarmUp.start(
            programPath: CommandLine.arguments.first ?? "", arguments: Array(CommandLine.arguments.dropFirst()),
            environment: ProcessEnvironment.current)
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

    @Option(Settings.length) var length: Int?
    @Option(Settings.charset) var charset: CodeCharset?
    @Flag(Settings.mask) var mask: Bool
    @Flag(Settings.noAutoSubmit) var noAutoSubmit: Bool
    @Option(Settings.language) var lang: Language?
    @Option(Settings.speech) var speech: SpeechChoice?
    @Option(Settings.speechLog) var speechLog: String?
    @Option(Settings.verbosity) var verbosity: Verbosity?
    @Flag(Settings.doctor) var doctor: Bool

    @OptionGroup(title: SettingGroup.logins.title)
    var login: LoginOptions

    @OptionGroup(title: SettingGroup.voice.title)
    var voice: VoiceOptions

    @OptionGroup(title: SettingGroup.appearance.title)
    var appearance: AppearanceOptions

    func run() throws {
        // Before anything can hold the code: no core dumps, and fds 0-2 taken so that a closed
        // stdout can never become the terminal.
        ProcessHardening.reserveStandardDescriptors()
        ProcessHardening.disableCoreDumps()
        ProcessHardening.ignoreBrokenPipe()
        let environment = ProcessEnvironment.current
        let asPinentry = login.pinentry || PinentryInvocation.isPinentryName(CommandLine.arguments.first ?? "")
        // The terminal first, in raw mode with signals handled, before anything that can wait (issue 14 point 1).
        var terminal: Terminal?
        if !doctor && !login.stdin && !asPinentry {
            terminal = PromptProgram.openTerminal(environment: environment)
            if terminal == nil { throw ExitCode(ExitStatus.noTerminal) }
        }
        let file = ConfigFileSettings.load(environment: environment) { path in try ConfigFile.readText(path: path) }
        let settings = file.values.overridden(by: commandLine)
        let language = settings[Settings.language] ?? Language.fromEnvironment(environment)
        let label = prompt.map(PromptLabel.trimmed).flatMap { $0.isEmpty ? nil : $0 }
        let configuration = PromptConfiguration(
            label: label, length: settings.value(Settings.length), charset: settings.value(Settings.charset),
            mask: settings.value(Settings.mask), autoSubmit: !settings.value(Settings.noAutoSubmit), language: language,
            verbosity: settings.value(Settings.verbosity), checksCode: login.check != nil,
            attempts: settings.value(Settings.attempts), timeLimit: settings[Settings.timeout])
        let check = settings[Settings.check].map {
            CheckSettings(command: $0, timeout: settings.value(Settings.checkTimeout))
        }
        let notices = file.problems.map(\.description)
        var voice = SpeechOptions(
            language: language, voice: settings[Settings.voice], rate: settings[Settings.rate],
            volume: settings[Settings.volume], pitch: settings[Settings.pitch])
        voice.languageIsChosen = settings[Settings.language] != nil
        if doctor {
            let route = SpeechRouteProbes.route(for: settings.value(Settings.speech), environment: environment)
            Doctor(route: route, voice: voice, environment: environment, configFile: file).run()
            return
        }
        if login.stdin && !asPinentry {
            for notice in notices { StandardError.writeLine(notice) }
            let status = StandardInputCode.run(configuration: configuration, check: check)
            if status != 0 { throw ExitCode(status) }
            return
        }
        let memory = AskMemory(store: StateDirectory.open(environment: environment))
        var request = request(configuration, environment: environment)
        if case .code(var field, askpass: true) = request, let prompt, memory.isAskedAgain(prompt) {
            field.details.insert(Wording(language: language).previousAnswerNotAccepted, at: 0)
            request = .code(field, askpass: true)
        }
        // A voice the file names but that is not installed falls back to the language's voice; one the
        // command line names is a usage error.
        let voiceLocation = commandLine[Settings.voice] == nil ? file.location(of: Settings.voice) : nil
        let program = PromptProgram(
            request: request, check: check, speech: settings.value(Settings.speech),
            speechLogPath: settings[Settings.speechLog], voice: voice,
            voiceLocation: voiceLocation, audioFile: settings[Settings.audioFile],
            appearance: Appearance(settings), environment: environment, notices: notices, memory: memory)
        // Every path inside `run()` has restored the terminal before it returns.
        if asPinentry {
            let status = PinentryProgram(
                template: program, language: language, verbosity: settings.value(Settings.verbosity)
            ).run()
            if status != 0 { throw ExitCode(status) }
            return
        }
        guard let terminal else { return }
        let status = program.run(on: terminal)
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
            return configuration.charset == .any
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

    /// Everything the command line sets; it wins over the file.
    var commandLine: SettingValues {
        var values = SettingValues()
        values.set(Settings.length, length)
        values.set(Settings.charset, charset)
        values.set(Settings.mask, mask ? true : nil)
        values.set(Settings.noAutoSubmit, noAutoSubmit ? true : nil)
        values.set(Settings.speechLog, speechLog)
        values.set(Settings.language, lang)
        values.set(Settings.speech, speech)
        values.set(Settings.verbosity, verbosity)
        values.set(Settings.doctor, doctor ? true : nil)
        appearance.add(to: &values)
        voice.add(to: &values)
        login.add(to: &values)
        return values
    }
}

/// How gpg-agent's pinentry-program runs us: a program named pinentry-otc is a pinentry.
enum PinentryInvocation {
    static func isPinentryName(_ programPath: String) -> Bool {
        programPath.split(separator: "/").last == "pinentry-otc"
    }
}
