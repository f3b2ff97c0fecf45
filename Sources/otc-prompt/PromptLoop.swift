import Glibc
import OTCPromptCore
import OTCPromptTerminal

/// How a prompt ended.
enum PromptOutcome: Equatable {
    case submitted(String)
    case cancelled
    /// The terminal went away (hang-up or end of input).
    case terminalClosed
    /// A signal asked the process to end: it is raised again once the terminal is restored.
    case signalled(Int32)

    /// Prints the code (if any) and returns the exit status. The terminal is already restored.
    func deliver(terminal: Terminal) -> Int32 {
        switch self {
        case .submitted(let code):
            do {
                try StandardOutput.write(code)
                return ExitStatus.submitted
            } catch {
                terminal.write("otc-prompt: \(error)\r\n")
                return ExitStatus.outputFailed
            }
        case .cancelled, .terminalClosed:
            return ExitStatus.cancelled
        case .signalled(let signal):
            guard let watcher = terminal.signalWatcher else { return 128 + signal }
            watcher.reraise(signal)
        }
    }
}

/// The flow of one key, top to bottom: bytes from the terminal → `KeyDecoder` → `Key` →
/// `PromptSession.handle` → announcements to the voice, the snapshot to the renderer.
struct PromptLoop {
    var session: PromptSession
    var renderer: any FieldRenderer
    let terminal: Terminal
    let speech: any SpeechBackend
    let escapeDelay: Duration
    let capabilities: TerminalCapabilities
    private var decoder = KeyDecoder()

    init(
        session: PromptSession, renderer: any FieldRenderer, terminal: Terminal, speech: any SpeechBackend,
        escapeDelay: Duration, capabilities: TerminalCapabilities
    ) {
        self.capabilities = capabilities
        self.session = session
        self.renderer = renderer
        self.terminal = terminal
        self.speech = speech
        self.escapeDelay = escapeDelay
    }

    /// Runs until the user submits or cancels, then leaves the terminal as it found it.
    mutating func run() -> PromptOutcome {
        let outcome = loop()
        terminal.write(renderer.finish())
        terminal.restore()
        session.wipe()
        return outcome
    }

    private mutating func loop() -> PromptOutcome {
        do {
            try terminal.enterRawMode(bracketedPaste: !capabilities.isDumb)
        } catch {
            terminal.write("otc-prompt: \(error)\r\n")
            return .terminalClosed
        }
        if let outcome = perform(session.start()) { return outcome }
        terminal.write(renderer.render(session.snapshot))

        while true {
            let timeout = decoder.isAwaitingMoreBytes ? escapeDelay : nil
            let keys: [Key]
            switch terminal.read(timeout: timeout) {
            case .bytes(let bytes): keys = decoder.feed(bytes)
            case .timedOut: keys = decoder.flush()
            case .closed: return .terminalClosed
            case .signal(let signal):
                if let outcome = handle(signal: signal) { return outcome }
                continue
            }
            for key in keys {
                let outcome = perform(session.handle(key))
                terminal.write(renderer.render(session.snapshot))
                if let outcome { return outcome }
            }
        }
    }

    /// Carries out the session's effects; returns an outcome when the prompt is over.
    private mutating func perform(_ effects: [PromptEffect]) -> PromptOutcome? {
        var outcome: PromptOutcome?
        for effect in effects {
            switch effect {
            case .announce(let announcement): speech.speak(announcement)
            case .redraw: terminal.write(renderer.redraw(session.snapshot))
            case .submit(let code): outcome = .submitted(code)
            case .cancel: outcome = .cancelled
            }
        }
        return outcome
    }

    private mutating func handle(signal: Int32) -> PromptOutcome? {
        switch signal {
        case SIGWINCH:
            terminal.write(renderer.redraw(session.snapshot))
            return nil
        case SIGTSTP:
            return suspend()
        case SIGCONT:
            return resume()
        default:
            return .signalled(signal)
        }
    }

    /// Ctrl-Z: leave the terminal as it was, stop, and come back to the prompt when continued.
    private mutating func suspend() -> PromptOutcome? {
        terminal.write(renderer.finish())
        terminal.restore()
        terminal.signalWatcher?.stopProcess()
        return resume()
    }

    /// Back from a stop: raw mode again, the field drawn again and announced again.
    private mutating func resume() -> PromptOutcome? {
        do {
            try terminal.enterRawMode(bracketedPaste: !capabilities.isDumb)
        } catch {
            return .terminalClosed
        }
        terminal.write(renderer.redraw(session.snapshot))
        return perform(session.start())
    }
}
