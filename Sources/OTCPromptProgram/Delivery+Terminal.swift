import OTCPromptCore
import OTCPromptFrontEnds
import OTCPromptHost
import OTCPromptLoop
import OTCPromptSettings
import OTCPromptTerminal

extension Delivery {
    /// Prints the answer (if any), says why (if it failed) and returns the exit status. The terminal is already
    /// restored.
    func carryOut(on terminal: Terminal) -> Int32 {
        switch self {
        case .answer(let secret):
            return print(terminal: terminal) { try StandardOutput.write(secret, encoding: terminal.encoding) }
        case .key(let secret):
            return print(terminal: terminal) {
                try StandardOutput.write(secret, encoding: terminal.encoding, endingLine: false)
            }
        case .text(let text):
            return print(terminal: terminal) { try StandardOutput.write(text, encoding: terminal.encoding) }
        case .status(let status):
            return status
        case .failure(let message, let status):
            terminal.writeLine("otc-prompt: \(message)")
            return status
        case .signal(let signal):
            guard let watcher = terminal.signalWatcher else { return ExitStatus.signalled(signal) }
            watcher.reraise(signal)
        }
    }

    /// In the terminal's charset: a secret typed as Latin-1 goes out as the same bytes. A secret is written from
    /// locked memory and wiped (`StandardOutput.write(_:encoding:)`).
    private func print(terminal: Terminal, _ write: () throws -> Void) -> Int32 {
        do {
            try write()
            return ExitStatus.submitted
        } catch {
            terminal.writeLine("otc-prompt: \(error)")
            return ExitStatus.outputFailed
        }
    }
}
