import OTCPromptCore
import OTCPromptFrontEnds
import OTCPromptHost
import OTCPromptLoop
import OTCPromptSettings
import OTCPromptSpeech
import OTCPromptTerminal

/// One run of the prompt: wires the session to the screen and the voice on a terminal already in
/// raw mode, and returns the exit status once the terminal has been restored.
struct PromptProgram {
    var request: Request
    var check: CheckSettings?
    /// How announcements should reach the user (`--speech`); `auto` is decided beside the prompt.
    let speech: SpeechChoice
    let speechLogPath: String?
    let voice: SpeechOptions
    /// "file:line" when the voice comes from the configuration file: then a voice that is not installed falls
    /// back to the language's voice instead of stopping the prompt.
    let voiceLocation: String?
    let audioFile: String?
    let appearance: Appearance
    let environment: [String: String]
    /// Speech notices ("no audio device") are given once per login session.
    let memory: AskMemory
    /// What the front end's caller asks of the prompt beyond its question (`PromptPolicy`).
    var policy = PromptPolicy.plain

    /// How long a lone Esc waits for the rest of an escape sequence before it counts as Esc, when the user set it
    /// (`--escape-delay`); nil: chosen from where the person is (`EscapeWait`).
    let escapeDelay: Duration?
    /// The longest the last announcement (complete, cancel) may keep the process alive.
    static let finalSpeechLimit: Duration = .seconds(3)
    /// The longest a voice still starting when the prompt ends is waited for, to say the last words: a
    /// voice starts in tens of milliseconds, and one stuck on its server is not worth the user's wait.
    static let startupGraceAtEnd: Duration = .milliseconds(200)

    /// The terminal, in raw mode with no echo and with signals handled, before anything that can wait
    /// (no wait without a deadline): keys typed meanwhile are kept, unechoed, and Ctrl-C or SIGTERM end the prompt
    /// at any moment. The first thing the command does.
    /// - Parameter postsWithout: the caller asks a password agent when there is no terminal (`AgentQuestion`):
    ///   its absence is then no failure to report.
    /// - Returns: nil once the reason is on stderr (and the system log, for an askpass caller without a
    ///   terminal, whose stderr goes nowhere): exit with `ExitStatus.noTerminal`.
    /// - Parameter renewal: the password agent's previous image left the terminal in raw mode (`AgentRenewal`).
    static func openTerminal(
        environment: [String: String], postsWithout: Bool = false, renewal: AgentRenewal? = nil
    ) -> Terminal? {
        let terminal: Terminal
        do {
            terminal = try Terminal.open(signalWatcher: try SignalWatcher())
        } catch .noTerminal where postsWithout {
            return nil
        } catch {
            StandardError.writeLine("otc-prompt: \(error)")
            SystemLog.warning("\(error)")
            return nil
        }
        if let renewal {
            terminal.adoptRawMode(original: renewal.original, bracketedPaste: renewal.bracketedPaste)
            // Confirmed, not assumed: a terminal that is not raw now (reset meanwhile, or never raw) is made raw,
            // and what it was is what the end puts back.
            try? terminal.reassertRawMode(bracketedPaste: renewal.bracketedPaste)
            renewal.resumeSignals()
            return terminal
        }
        // A failure here is said by the loop, which tries again.
        try? terminal.enterRawMode(bracketedPaste: !TerminalCapabilities(environment: environment).isDumb)
        return terminal
    }

    /// Runs the session, then hands its outcome to the caller as `delivery` maps it (stdout and the exit status).
    func run(on terminal: Terminal, delivery: (PromptOutcome) -> Delivery = Delivery.init) -> Int32 {
        switch runSession(on: terminal) {
        case .success(let outcome): return delivery(outcome).carryOut(on: terminal)
        case .failure(let failure): return failure.status
        }
    }

    /// Runs the session on a terminal that is already open (a pinentry's, named by gpg-agent); the
    /// terminal is restored when it returns. Fails, after saying why on the terminal, when the
    /// speech options cannot be met.
    func runSession(on terminal: Terminal) -> Result<PromptOutcome, SetupFailed> {
        // A terminal whose charset cannot be transcoded would have a typed secret changed: refuse.
        let codeset = LocaleCodeset.current(environment: environment)
        guard let encoding = TerminalEncoding(codeset: codeset) else {
            let message = ExitStatus.unsupportedCharsetMessage(codeset)
            terminal.restore()
            terminal.writeLine("otc-prompt: \(message)")
            SystemLog.warning(message)
            return .failure(SetupFailed(status: ExitStatus.unsupportedCharset))
        }
        terminal.encoding = encoding
        let start = MonotonicInstant.now
        let capabilities = TerminalCapabilities(environment: environment)
        try? terminal.enterRawMode(bracketedPaste: !capabilities.isDumb)
        // The terminal the prompt reads from: its login session says where the person typing is, for the voice
        // and for how long a lone Esc waits.
        let location = LoginSession.locate(descriptor: terminal.input)
        let speech: SpeechSetup
        do {
            speech = try SpeechSetup(
                choice: self.speech, voice: voice, voiceLocation: voiceLocation, audioFile: audioFile,
                terminal: terminal, location: location, environment: environment, logPath: speechLogPath,
                memory: memory,
                releaseAfterSilence: policy.voiceReleasedAfterSilence, speculates: policy.speculatesOnEspeak,
                cue: policy.cue,
                elapsed: { MonotonicInstant.now - start })
        } catch {
            terminal.restore()
            terminal.writeLine("otc-prompt: \(error)")
            return .failure(SetupFailed(status: ExitStatus.usage))
        }

        // With --speech text the opening announcement holds these lines already.
        if !speech.isText {
            for line in request.details { terminal.writeLine(LineWrapping.wrap(line, width: terminal.columns)) }
        }

        // Boxes are for codes; only a field's answer goes to --check.
        // What was typed for the prompt went with its end (`PromptLoop.run`); what is typed while the last words
        // are said is the next program's (the shell's command after an Esc).
        var outcome = runLoop(
            request.session, style: request.drawsBoxes ? appearance.style : .line,
            check: request.isField ? check : nil, terminal: terminal, speech: speech, capabilities: capabilities,
            location: location, escapeWait: EscapeWait.choose(chosen: escapeDelay, location: location),
            asksKeyboardProtocol: KeyboardProtocol.mayAsk(
                location: location, capabilities: capabilities, environment: environment))
        outcome = speech.finish(
            after: outcome, terminal: terminal, startupGrace: Self.startupGraceAtEnd, limit: Self.finalSpeechLimit)
        return .success(outcome)
    }

    /// The session could not start; the reason has been written on the terminal.
    struct SetupFailed: Error {
        /// The exit status that says why.
        var status: Int32
    }
}

extension PromptProgram {
    /// Runs `session` on the terminal, its outputs chosen for `style` and the person's `location`.
    private func runLoop<Session: InteractiveSession>(
        _ session: Session, style: FieldStyle?, check: CheckSettings?, terminal: Terminal, speech: SpeechSetup,
        capabilities: TerminalCapabilities, location: SessionLocation, escapeWait: EscapeWait,
        asksKeyboardProtocol: Bool
    ) -> PromptOutcome {
        let place = OutputPlace(
            terminal: terminal, location: location, environment: environment, appearance: appearance, style: style,
            capabilities: capabilities, speech: speech)
        let outputs = PromptOutputs.choose(at: place, linesAbove: request.details)
        var loop = PromptLoop(
            session: session, outputs: outputs,
            system: .live(
                terminal: terminal, caller: policy.caller, stopsAsAJob: policy.callerIsInProcess,
                outside: policy.outside),
            escapeDelay: escapeWait.delay,
            capabilities: capabilities, check: check, typeAhead: request.typeAhead, speechStartup: speech.startup,
            asksKeyboardProtocol: asksKeyboardProtocol)
        loop.keepsTerminalWhenCallerGoes = policy.keepsTerminalWhenCallerGoes
        loop.keyHold = policy.keyHold
        loop.declines = policy.declines
        loop.keepsRawMode = policy.keepsRawMode
        defer { loop.outputs.close() }
        return loop.run()
    }
}
