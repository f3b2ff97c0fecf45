import OTCPromptCore
import OTCPromptFrontEnds
import OTCPromptHost
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
    /// Handed over by the password agent's previous image (`AgentRenewal`), which executed this one.
    var renewal: AgentRenewal? = nil

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
            // The benchmarks' trace, if asked for: a file the prompt writes, so the user's own (`OutputFile`).
            if let path = ProcessEnvironment.current[SpeechTrace.variable],
                let trace = try? OutputFile.open(path: path, option: SpeechTrace.variable, appending: true)
            {
                SpeechTrace.install(descriptor: trace.descriptor)
            }
            // Before any audio library can run (the warm-up opens a stream): another user's PulseAudio is
            // refused for the whole process, whatever asks for a device.
            SpeechRouteProbes.refuseForeignPulseAudio(environment: ProcessEnvironment.current)
            // A renewed agent loads no voice until something is to be said: that is what it renewed itself for.
            let renewal = AgentRenewal.take()
            if renewal == nil {
                EngineWarmUp.start(
                    commandLine: parsed.values, prompt: parsed.prompt, programPath: CommandLine.arguments.first ?? "",
                    environment: ProcessEnvironment.current)
            }
            ProcessExit.exit(
                OTCPromptCommand(prompt: parsed.prompt, commandLine: parsed.values, renewal: renewal).run())
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
        let frontEnd = FrontEnd.choose(
            commandLine: commandLine, prompt: prompt, programPath: CommandLine.arguments.first ?? "")
        // cryptsetup takes the key from stdout: one that cannot take it fails now, not after the passphrase is typed
        // (cryptroot then asks again, with its own prompt).
        if frontEnd == .cryptsetup, let unusable = StandardOutput.unusable {
            StandardError.writeLine("\(Program.name): \(TerminalError.standardOutput(unusable))")
            return ExitStatus.outputFailed
        }
        var terminal: Terminal?
        // An askpass with no terminal posts its question for the user's password agent instead (`AgentQuestion`).
        let postsWithoutTerminal = frontEnd.postsWithoutTerminal
        // Only an agent renews itself: were any other run handed a renewal, it would start afresh.
        var renewal = renewal
        if case .agent = frontEnd {
        } else {
            renewal?.resumeSignals()
            renewal = nil
        }
        if frontEnd.opensTerminal {
            terminal = PromptProgram.openTerminal(
                environment: environment, postsWithout: postsWithoutTerminal, renewal: renewal)
            // A renewed agent whose terminal went away meanwhile ends as on a hang-up, not as one that never had one.
            if terminal == nil && !postsWithoutTerminal {
                return renewal == nil ? ExitStatus.noTerminal : ExitStatus.terminalClosed
            }
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
        var configuration = PromptConfiguration(
            label: label, length: settings.value(Settings.length), charset: settings.value(Settings.charset),
            mask: settings.value(Settings.mask), autoSubmit: !settings.value(Settings.noAutoSubmit), language: language,
            verbosity: settings.value(Settings.verbosity), checksCode: settings[Settings.check] != nil,
            attempts: settings.value(Settings.attempts), timeLimit: settings[Settings.timeout])
        configuration.spelling = settings.value(Settings.spell)
        let check = settings[Settings.check].map {
            CheckSettings(command: $0, timeout: settings.value(Settings.checkTimeout))
        }
        var notices = file.problems.map(\.description)
        if frontEnd == .cryptsetup { notices += CryptsetupFrontEnd.problems(environment: environment) }
        var voice = SpeechOptions(
            language: language, voice: settings[Settings.voice], rate: settings[Settings.rate],
            volume: settings[Settings.volume], pitch: settings[Settings.pitch])
        voice.languageIsChosen = settings[Settings.language] != nil
        switch frontEnd {
        case .doctor:
            guard
                let lines = Doctor(
                    choice: settings.value(Settings.speech), braille: settings.value(Settings.braille), voice: voice,
                    environment: environment, configFile: file, escapeDelay: settings[Settings.escapeDelay]
                ).run(), let terminal = PromptProgram.openTerminal(environment: environment)
            else { return ExitStatus.submitted }
            // Said as a prompt says its words; what the notice's end answers is nothing for stdout.
            _ = PromptProgram(
                request: DoctorFrontEnd.request(
                    report: lines, language: language, verbosity: configuration.verbosity),
                check: nil, speech: settings.value(Settings.speech), speechLogPath: settings[Settings.speechLog],
                voice: voice, voiceLocation: nil, audioFile: settings[Settings.audioFile],
                appearance: Appearance(settings), environment: environment, notices: [],
                memory: AskMemory(store: StateDirectory.open(environment: environment)),
                escapeDelay: settings[Settings.escapeDelay]
            ).runSession(on: terminal)
            return ExitStatus.submitted
        case .bootCue(let cue):
            return PCSpeaker.play(cue) ? ExitStatus.submitted : ExitStatus.noTerminal
        case .stdin:
            for notice in notices { StandardError.writeLine(notice) }
            return StandardInputCode.run(configuration: configuration, check: check, environment: environment)
        case .prompt, .askpass, .pinentry, .cryptsetup, .agent:
            break
        }
        let memory = AskMemory(store: StateDirectory.open(environment: environment))
        // A pinentry's is a template: each dialog sets its own request.
        var request =
            switch frontEnd {
            case .askpass(let prompt):
                AskpassFrontEnd.request(
                    prompt: prompt, configuration: configuration, environment: environment,
                    askedAgain: memory.isAskedAgain(prompt))
            case .cryptsetup:
                CryptsetupFrontEnd.request(
                    environment: environment, language: language, verbosity: configuration.verbosity,
                    timeLimit: configuration.timeLimit)
            default:
                PromptFrontEnd.request(configuration)
            }
        if let tooSlowNotice { request = request.withDetail(tooSlowNotice) }
        // The file's problems are said once, with the opening: shown above the field and spoken, in every mode
        // (a pinentry's first dialog); and on stderr when that is not the prompt's terminal (gpg-agent's log, a
        // script's file), so they are never lost.
        if frontEnd == .pinentry || !StandardError.isSameTerminal(as: terminal) {
            for notice in notices { StandardError.writeLine(notice) }
        }
        if frontEnd != .pinentry { request = request.withDetails(notices) }
        // A voice the file names but that is not installed falls back to the language's voice; one the
        // command line names is a usage error.
        let voiceLocation = commandLine[Settings.voice] == nil ? file.location(of: Settings.voice) : nil
        var program = PromptProgram(
            request: request, check: check, speech: settings.value(Settings.speech),
            speechLogPath: settings[Settings.speechLog], voice: voice,
            voiceLocation: voiceLocation, audioFile: settings[Settings.audioFile],
            appearance: Appearance(settings), environment: environment, notices: [], memory: memory,
            escapeDelay: settings[Settings.escapeDelay])
        // The disk prompt at boot is heard as the PC speaker's tones when no sound card speaks.
        if frontEnd == .cryptsetup { program.cue = CryptsetupFrontEnd.cue(environment: environment) }
        // Every path inside `run()` has restored the terminal before it returns.
        if frontEnd == .pinentry {
            return PinentryProgram(
                template: program,
                frontEnd: PinentryFrontEnd(language: language, verbosity: settings.value(Settings.verbosity)),
                configNotices: PinentryProgram.OnceLines(notices)
            ).run()
        }
        if let terminal, case .agent(let query) = frontEnd {
            // Said by the first image; a renewed one has them on the screen already.
            if renewal == nil { for notice in notices { terminal.writeLine(notice) } }
            return AgentProgram(
                template: program,
                frontEnd: AgentFrontEnd(
                    language: language, verbosity: configuration.verbosity,
                    echoesUserRequests: settings.value(Settings.agentEchoUserRequests)),
                places: AgentProgram.places(
                    option: settings[Settings.agentDirectory], environment: environment, user: UserAccount.currentUID),
                query: query, renewal: renewal, arguments: CommandLine.arguments, cuesAtBoot: PCSpeaker.inInitrd
            ).run(on: terminal)
        }
        let status: Int32
        if let terminal {
            status = program.run(
                on: terminal, delivery: frontEnd == .cryptsetup ? CryptsetupFrontEnd.delivery : Delivery.init)
        } else {
            let agent = AgentQuestion(
                environment: environment, timeLimit: configuration.timeLimit,
                caller: AgentQuestion.askpassCaller)
            guard let outcome = agent.ask(request) else { return ExitStatus.noTerminal }
            status = agent.deliver(Delivery(outcome))
        }
        if case .askpass(let prompt) = frontEnd, AskpassFrontEnd.remembers(request) {
            memory.remember(prompt, answered: status == ExitStatus.submitted)
        }
        return status
    }
}
