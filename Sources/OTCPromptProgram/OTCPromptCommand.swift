import OTCPromptBraille
import OTCPromptCore
import OTCPromptFrontEnds
import OTCPromptHost
import OTCPromptLoop
import OTCPromptSettings
import OTCPromptSpeech
import OTCPromptTerminal

/// The command line: options in, a `PromptProgram` run, an exit status out.
public struct OTCPromptCommand {
    /// The one positional argument: the field's label, or the askpass prompt.
    let prompt: String?
    /// Everything the command line sets; it wins over the file.
    let commandLine: SettingValues
    /// Handed over by the password agent's previous image (`AgentRenewal`), which executed this one.
    var renewal: AgentRenewal? = nil

    /// Reads the command line (a caller's prompt only ever as data: `FrontEnds.argumentsToParse`), runs, and exits.
    ///
    /// Every message goes through `StandardError.writeLine`, which makes it visible, so no escape sequence in an
    /// argument reaches the terminal.
    public static func main() {
        let given = Array(CommandLine.arguments.dropFirst())
        var standardOutput = StandardOutputReading.current
        let programPath = CommandLine.arguments.first ?? ""
        let environment = ProcessEnvironment.current
        // Only where it decides anything (a real caller's prompt is a job's option that rarely).
        if AskpassArguments.readerDecides(
            arguments: given, environment: environment, programPath: programPath, standardOutput: standardOutput,
            namesAJob: FrontEnds.namesAJob)
        {
            standardOutput = StandardOutputReading.settled(standardOutput, within: .milliseconds(250))
        }
        let arguments = FrontEnds.argumentsToParse(
            FrontEndCall(
                arguments: given, programPath: programPath, environment: environment, standardOutput: standardOutput))
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
            // Before any thread or library runs: fd 2 is no longer the terminal for libraries' words, a write past
            // the file-size limit is an error rather than SIGXFSZ, and a trap or fault puts the terminal back.
            ProcessHardening.reserveStandardDescriptors()
            StandardError.separateFromLibraries()
            ProcessHardening.ignoreFileSizeLimit()
            CrashRestore.install()
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
        let frontEnd = FrontEnds.choose(
            commandLine: commandLine, prompt: prompt, programPath: CommandLine.arguments.first ?? "",
            environment: environment)
        if let status = frontEnd.refusal(environment: environment) { return status }
        // Only an agent renews itself: were any other run handed a renewal, it would start afresh.
        var renewal = renewal
        if !frontEnd.keepsRenewal {
            renewal?.resumeSignals()
            renewal = nil
        }
        // The terminal first, in raw mode with signals handled, before anything that can wait (no wait without a
        // deadline).
        var terminal: Terminal?
        if frontEnd.opensTerminal {
            terminal = PromptProgram.openTerminal(
                environment: environment, postsWithout: frontEnd.postsWithoutTerminal, renewal: renewal)
            // A renewed agent whose terminal went away meanwhile ends as on a hang-up, not as one that never had one.
            if terminal == nil && !frontEnd.postsWithoutTerminal {
                return renewal == nil ? ExitStatus.noTerminal : ExitStatus.terminalClosed
            }
        }
        return frontEnd.run(context(terminal: terminal, renewal: renewal, frontEnd: frontEnd, environment: environment))
    }

    /// The shared context, built once: the config file waited for at most a second (a signal meanwhile ends the
    /// process as that signal), its values overridden by the command line's.
    private func context(
        terminal: Terminal?, renewal: AgentRenewal?, frontEnd: any FrontEndRun, environment: [String: String]
    ) -> RunContext {
        let (file, configTooSlow) = ConfigFileLoad.forRun(environment: environment, terminal: terminal)
        let settings = file.values.overridden(by: commandLine)
        let language = settings[Settings.language] ?? Language.fromEnvironment(environment)
        let label = prompt.map(PromptLabel.trimmed).flatMap { $0.isEmpty ? nil : $0 }
        var configuration = PromptConfiguration(
            label: label, length: settings.value(Settings.length), charset: settings.value(Settings.charset),
            mask: settings.value(Settings.mask), autoSubmit: !settings.value(Settings.noAutoSubmit), language: language,
            verbosity: settings.value(Settings.verbosity), checksCode: settings[Settings.check] != nil,
            attempts: settings.value(Settings.attempts), timeLimit: settings[Settings.timeout])
        configuration.spelling = settings.value(Settings.spell)
        var voice = SpeechOptions(
            language: language, voice: settings[Settings.voice], rate: settings[Settings.rate],
            volume: settings[Settings.volume], pitch: settings[Settings.pitch])
        voice.languageIsChosen = settings[Settings.language] != nil
        return RunContext(
            environment: environment, commandLine: commandLine, file: file, settings: settings, language: language,
            configuration: configuration,
            check: settings[Settings.check].map {
                CheckSettings(command: $0, timeout: settings.value(Settings.checkTimeout))
            },
            voice: voice,
            notices: file.problems.map(\.description) + frontEnd.problems(environment: environment)
                + [
                    BrailleReport.notHonoured(
                        settings.value(Settings.braille), environment: environment, terminal: terminal?.input)
                ].compactMap { $0 },
            // Said once: drawn above the field and spoken with the opening.
            tooSlowNotice: configTooSlow.map {
                Wording(language: language).configFileTooSlow($0, seconds: ConfigFileLoad.deadlineSeconds)
            },
            terminal: terminal, renewal: renewal, arguments: CommandLine.arguments)
    }
}
