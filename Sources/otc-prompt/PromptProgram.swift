import OTCPromptCore
import OTCPromptLoop
import OTCPromptSpeech
import OTCPromptTerminal

/// What the prompt asks for.
enum PromptRequest {
    /// A code (or, in askpass mode, a free-text secret).
    case code(PromptConfiguration)
    /// A yes/no question (askpass confirmation).
    case question(ConfirmSession)
}

/// One run of the prompt: opens the terminal, wires the session to the screen and the voice,
/// and returns the exit status once the terminal has been restored.
struct PromptProgram {
    let request: PromptRequest
    let check: CheckSettings?
    let speech: SpeechMode
    let speechLogPath: String?
    let voice: SpeechOptions
    /// "file:line" when the voice comes from the configuration file: then a voice that is not installed falls
    /// back to the language's voice instead of stopping the prompt.
    let voiceLocation: String?
    let audioFile: String?
    let appearance: Appearance
    let environment: [String: String]
    /// Lines to show once the terminal is open (e.g. problems in the config file).
    let notices: [String]

    /// How long a lone Esc waits for the rest of an escape sequence before it counts as Esc.
    static let escapeDelay: Duration = .milliseconds(100)
    /// The longest the last announcement (complete, cancel) may keep the process alive.
    static let finalSpeechLimit: Duration = .seconds(3)

    func run() -> Int32 {
        let clock = ContinuousClock()
        let start = clock.now
        // The terminal first: the engine's start-up points fd 2 at a capture file for a moment,
        // which must not swallow the no-terminal message or confuse the stderr fallback.
        let terminal: Terminal
        do {
            terminal = try Terminal.open(signalWatcher: try SignalWatcher())
        } catch {
            StandardError.writeLine("otc-prompt: \(error)")
            return ExitStatus.noTerminal
        }
        // espeak-ng and the audio device start on their own thread; `SpeechSetup` waits for them
        // before anything is written.
        let engine = SpeechSetup.startEngine(mode: self.speech, voice: voice, audioFile: audioFile)

        let speech: SpeechSetup
        do {
            speech = try SpeechSetup(
                engine: engine, mode: self.speech, voice: voice, voiceLocation: voiceLocation, audioFile: audioFile,
                terminal: terminal, logPath: speechLogPath,
                elapsed: { clock.now - start })
        } catch {
            terminal.writeLine("otc-prompt: \(error)")
            return ExitStatus.usage
        }

        let capabilities = TerminalCapabilities(environment: environment)
        for notice in notices { terminal.writeLine(notice) }
        for notice in speech.notices { terminal.writeLine("otc-prompt: \(notice)") }

        let outcome: PromptOutcome
        switch request {
        case .code(let configuration):
            // Boxes are for codes: a free-text secret of up to 256 characters is drawn as a line.
            outcome = runLoop(
                PromptSession(configuration: configuration),
                style: configuration.isFixedLength ? appearance.style : .line, check: check,
                terminal: terminal, speech: speech, capabilities: capabilities)
        case .question(let question):
            outcome = runLoop(
                question, style: .line, check: nil, terminal: terminal, speech: speech, capabilities: capabilities)
        }
        if case .signalled = outcome {} else { speech.backend.finish(timeout: Self.finalSpeechLimit) }
        return outcome.deliver(terminal: terminal)
    }
}

extension PromptProgram {
    /// Runs `session` on the terminal with a renderer for `style`.
    private func runLoop<Session: InteractiveSession>(
        _ session: Session, style: FieldStyle?, check: CheckSettings?, terminal: Terminal, speech: SpeechSetup,
        capabilities: TerminalCapabilities
    ) -> PromptOutcome {
        var loop = PromptLoop(
            session: session,
            renderer: makeRenderer(
                style: style, speechIsText: speech.isText, capabilities: capabilities, boxes: appearance.boxes),
            system: .live(terminal: terminal), speech: speech.backend, escapeDelay: Self.escapeDelay,
            capabilities: capabilities,
            check: check)
        return loop.run()
    }
}

/// The exit statuses, in one table (documented in the README and the man page).
enum ExitStatus {
    static let submitted: Int32 = 0
    /// All check attempts were rejected, or a confirmation was answered no.
    static let rejected: Int32 = 1
    static let usage: Int32 = 64
    /// `--stdin` was given something that is not a code.
    static let invalidInput: Int32 = 65
    static let noTerminal: Int32 = 74
    static let outputFailed: Int32 = 74
    /// `--timeout` ran out (timeout(1)'s convention).
    static let timedOut: Int32 = 124
    static let cancelled: Int32 = 130
    /// The terminal went away (hang-up or end of input), as if by SIGHUP.
    static let terminalClosed: Int32 = 129
}
