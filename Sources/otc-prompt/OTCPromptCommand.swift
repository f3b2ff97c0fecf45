import OTCPromptCore
import OTCPromptLoop
import OTCPromptSettings
import OTCPromptSpeech
import OTCPromptTerminal

/// The command line: options in, a `PromptProgram` run, an exit status out.
@main
struct OTCPromptCommand {
    /// The one positional argument: the field's label, or the askpass prompt.
    let prompt: String?
    /// Everything the command line sets; it wins over the file.
    let commandLine: SettingValues

    /// Reads the command line (a caller's prompt only ever as data: `AskpassArguments`), runs, and exits.
    ///
    /// Every message goes through `StandardError.writeLine`, which makes it visible, so no escape sequence in an
    /// argument reaches the terminal.
    static func main() {
        let arguments = AskpassArguments.forParsing(
            Array(CommandLine.arguments.dropFirst()), environment: ProcessEnvironment.current,
            programPath: CommandLine.arguments.first ?? "", standardOutputIsTerminal: StandardOutput.isTerminal)
        switch CommandLineParser.parse(arguments) {
        case .failure(let error):
            StandardError.writeLine(error.message)
            ProcessExit.exit(ExitStatus.usage)
        case .success(let parsed) where parsed.action == .help:
            ProcessExit.exit(answer(String(HelpText.text(notes: helpNotes(commandLine: parsed.values)).dropLast())))
        case .success(let parsed) where parsed.action == .version:
            ProcessExit.exit(answer(OTCPromptVersion.current))
        case .success(let parsed):
            EngineWarmUp.start(
                commandLine: parsed.values, programPath: CommandLine.arguments.first ?? "",
                environment: ProcessEnvironment.current)
            ProcessExit.exit(OTCPromptCommand(prompt: parsed.prompt, commandLine: parsed.values).run())
        }
    }

    /// What `--help` says holds here and now: which speech `auto` (or the user's choice) gives, and why, with the
    /// same probes and the same config file as a prompt started with these options.
    private static func helpNotes(commandLine: SettingValues) -> [String: String] {
        let environment = ProcessEnvironment.current
        var file = ConfigFileSettings()
        if case .loaded(let settings) = ConfigFileLoad.load(environment: environment, signals: nil) { file = settings }
        let choice = file.values.overridden(by: commandLine).value(Settings.speech)
        let route = SpeechRouteProbes.route(for: choice, environment: environment, terminal: .controlling)
        return [Settings.speech.name: "Here and now: \(route.kind.rawValue), because \(route.reason)."]
    }

    /// Whether this run asks at the terminal itself: not `--doctor`, `--stdin` or a pinentry (whose tty gpg-agent
    /// names). These are command-line options only: no config file can change them.
    static func opensPrompt(commandLine: SettingValues, programPath: String) -> Bool {
        !commandLine.value(Settings.doctor) && !commandLine.value(Settings.stdin)
            && !commandLine.value(Settings.pinentry) && !PinentryInvocation.isPinentryName(programPath)
    }

    /// Writes the help or the version on stdout: 0, or 74 when stdout cannot take it.
    private static func answer(_ text: String) -> Int32 {
        do {
            try StandardOutput.write(text)
            return ExitStatus.submitted
        } catch {
            StandardError.writeLine("\(Program.name): \(error)")
            return ExitStatus.outputFailed
        }
    }

    func run() -> Int32 {
        // Before anything can hold the code: no core dumps, and fds 0-2 taken so that a closed
        // stdout can never become the terminal.
        ProcessHardening.reserveStandardDescriptors()
        ProcessHardening.disableCoreDumps()
        ProcessHardening.ignoreBrokenPipe()
        let environment = ProcessEnvironment.current
        // The terminal first, in raw mode with signals handled, before anything that can wait (no wait without a deadline).
        var terminal: Terminal?
        if Self.opensPrompt(commandLine: commandLine, programPath: CommandLine.arguments.first ?? "") {
            terminal = PromptProgram.openTerminal(environment: environment)
            if terminal == nil { return ExitStatus.noTerminal }
        }
        // Waited for at most a second; a signal meanwhile ends the process as that signal.
        let (file, configTooSlow) = ConfigFileLoad.forRun(environment: environment, terminal: terminal)
        let settings = file.values.overridden(by: commandLine)
        let language = settings[Settings.language] ?? Language.fromEnvironment(environment)
        // Said once: drawn above the field and spoken with the opening.
        let tooSlowNotice = configTooSlow.map {
            Wording(language: language).configFileTooSlow($0, seconds: ConfigFileLoad.deadlineSeconds)
        }
        let label = prompt.map(PromptLabel.trimmed).flatMap { $0.isEmpty ? nil : $0 }
        let configuration = PromptConfiguration(
            label: label, length: settings.value(Settings.length), charset: settings.value(Settings.charset),
            mask: settings.value(Settings.mask), autoSubmit: !settings.value(Settings.noAutoSubmit), language: language,
            verbosity: settings.value(Settings.verbosity), checksCode: settings[Settings.check] != nil,
            attempts: settings.value(Settings.attempts), timeLimit: settings[Settings.timeout])
        let check = settings[Settings.check].map {
            CheckSettings(command: $0, timeout: settings.value(Settings.checkTimeout))
        }
        let notices = file.problems.map(\.description)
        var voice = SpeechOptions(
            language: language, voice: settings[Settings.voice], rate: settings[Settings.rate],
            volume: settings[Settings.volume], pitch: settings[Settings.pitch])
        voice.languageIsChosen = settings[Settings.language] != nil
        if settings.value(Settings.doctor) {
            Doctor(choice: settings.value(Settings.speech), voice: voice, environment: environment, configFile: file)
                .run()
            return ExitStatus.submitted
        }
        let asPinentry =
            settings.value(Settings.pinentry) || PinentryInvocation.isPinentryName(CommandLine.arguments.first ?? "")
        if settings.value(Settings.stdin) && !asPinentry {
            for notice in notices { StandardError.writeLine(notice) }
            return StandardInputCode.run(configuration: configuration, check: check, environment: environment)
        }
        let memory = AskMemory(store: StateDirectory.open(environment: environment))
        var request = request(configuration, environment: environment)
        if case .code(var field, askpass: true) = request, let prompt, memory.isAskedAgain(prompt) {
            field.details.insert(Wording(language: language).previousAnswerNotAccepted, at: 0)
            request = .code(field, askpass: true)
        }
        if let tooSlowNotice { request = request.withDetail(tooSlowNotice) }
        // The file's problems are said once, with the opening: shown above the field and spoken, in every mode
        // (a pinentry's first dialog); and on stderr when that is not the prompt's terminal (gpg-agent's log, a
        // script's file), so they are never lost.
        if asPinentry || !StandardError.isSameTerminal(as: terminal) {
            for notice in notices { StandardError.writeLine(notice) }
        }
        if !asPinentry { request = request.withDetails(notices) }
        // A voice the file names but that is not installed falls back to the language's voice; one the
        // command line names is a usage error.
        let voiceLocation = commandLine[Settings.voice] == nil ? file.location(of: Settings.voice) : nil
        var program = PromptProgram(
            request: request, check: check, speech: settings.value(Settings.speech),
            speechLogPath: settings[Settings.speechLog], voice: voice,
            voiceLocation: voiceLocation, audioFile: settings[Settings.audioFile],
            appearance: Appearance(settings), environment: environment, notices: [], memory: memory,
            escapeDelay: settings.value(Settings.escapeDelay))
        program.answerEndsLine = !settings.value(Settings.cryptsetup)
        // Every path inside `run()` has restored the terminal before it returns.
        if asPinentry {
            return PinentryProgram(
                template: program, language: language, verbosity: settings.value(Settings.verbosity),
                configNotices: PinentryProgram.OnceLines(notices)
            ).run()
        }
        guard let terminal else { return ExitStatus.noTerminal }
        let status = program.run(on: terminal)
        if case .code(_, askpass: true) = request, let prompt {
            memory.remember(prompt, answered: status == ExitStatus.submitted)
        }
        return status
    }
}

extension OTCPromptCommand {
    /// What to ask: the code field the options describe, or, when called as SSH_ASKPASS or
    /// SUDO_ASKPASS, what the prompt text asks for.
    func request(_ configuration: PromptConfiguration, environment: [String: String]) -> PromptRequest {
        if commandLine.value(Settings.cryptsetup) {
            return .code(
                CryptsetupRequest(environment: environment).configuration(
                    language: configuration.language, verbosity: configuration.verbosity,
                    timeLimit: configuration.timeLimit), askpass: false)
        }
        // `main` has already turned an askpass call into `--askpass -- PROMPT`.
        guard let prompt, commandLine.value(Settings.askpass) else {
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
}

/// How gpg-agent's pinentry-program runs us: a program named pinentry-otc is a pinentry.
enum PinentryInvocation {
    static func isPinentryName(_ programPath: String) -> Bool {
        programPath.split(separator: "/").last == "pinentry-otc"
    }
}
