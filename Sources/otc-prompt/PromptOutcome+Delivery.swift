import OTCPromptCore
import OTCPromptLoop
import OTCPromptSettings
import OTCPromptTerminal

extension PromptOutcome {
    /// Prints the code (if any) and returns the exit status. The terminal is already restored.
    func deliver(terminal: Terminal) -> Int32 {
        switch self {
        case .submitted(let secret):
            return print(secret, terminal: terminal)
        case .confirmed(let yes):
            // ssh reads "yes" for a host-key question; a confirm prompt only looks at the status.
            return yes ? print("yes", terminal: terminal) : ExitStatus.rejected
        case .cancelled, .callerGone:
            return ExitStatus.cancelled
        case .terminalClosed:
            return ExitStatus.terminalClosed
        case .rejected:
            return ExitStatus.rejected
        case .checkCouldNotRun(let message):
            terminal.writeLine("otc-prompt: \(message)")
            return ExitStatus.checkCouldNotRun
        case .timedOut:
            return ExitStatus.timedOut
        case .speechFailed(let message):
            terminal.writeLine("otc-prompt: \(message)")
            return ExitStatus.usage
        case .signalled(let signal):
            guard let watcher = terminal.signalWatcher else { return ExitStatus.signalled(signal) }
            watcher.reraise(signal)
        }
    }

    /// Writes `secret` from locked memory and wipes it (`StandardOutput.write(_:encoding:)`).
    private func print(_ secret: SecretBytes, terminal: Terminal) -> Int32 {
        do {
            // In the terminal's charset: a secret typed as Latin-1 goes out as the same bytes.
            try StandardOutput.write(secret, encoding: terminal.encoding)
            return ExitStatus.submitted
        } catch {
            terminal.writeLine("otc-prompt: \(error)")
            return ExitStatus.outputFailed
        }
    }
}
