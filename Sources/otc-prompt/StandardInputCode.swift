import OTCPromptCore
import OTCPromptLoop
import OTCPromptSettings
import OTCPromptTerminal

/// `--stdin`: no prompt at all; one line of standard input is read and checked like a paste
/// (`StandardInputLine`).
enum StandardInputCode {
    static func run(configuration: PromptConfiguration, check: CheckSettings?, environment: [String: String]) -> Int32 {
        // The line is in the locale's charset, as typed at a terminal; the answer goes out in it too.
        let codeset = LocaleCodeset.current(environment: environment)
        guard let encoding = TerminalEncoding(codeset: codeset) else {
            StandardError.writeLine("otc-prompt: " + ExitStatus.unsupportedCharsetMessage(codeset))
            return ExitStatus.unsupportedCharset
        }
        let read: String?
        do {
            read = try StandardInput.readLine(encoding: encoding)
        } catch {
            StandardError.writeLine("otc-prompt: \(error)")
            return ExitStatus.outputFailed
        }
        guard let line = read else {
            StandardError.writeLine("otc-prompt: standard input is not UTF-8 text; nothing was printed")
            return ExitStatus.invalidInput
        }
        guard let code = StandardInputLine.code(in: line, charset: configuration.charset, length: configuration.length)
        else {
            StandardError.writeLine(
                "otc-prompt: " + StandardInputLine.problem(charset: configuration.charset, length: configuration.length)
            )
            return ExitStatus.invalidInput
        }
        if let check, let rejection = rejection(of: String(code), by: check) {
            // A free-text secret is always treated as masked, as the interactive field masks it.
            let mask = configuration.mask || configuration.charset == .any
            let reason = CheckErrorLine.sayable(rejection, code: String(code), mask: mask)
            StandardError.writeLine("otc-prompt: code rejected by --check" + (reason.map { ": " + $0 } ?? ""))
            return ExitStatus.rejected
        }
        do {
            try StandardOutput.write(String(code), encoding: encoding)
            return ExitStatus.submitted
        } catch {
            StandardError.writeLine("otc-prompt: \(error)")
            return ExitStatus.outputFailed
        }
    }

    /// Runs the check to its verdict: why it rejected the code, or nil when it accepted it.
    private static func rejection(of code: String, by check: CheckSettings) -> String? {
        let process: CheckCommand
        do {
            process = try CheckCommand.start(command: check.command, input: code)
        } catch {
            return "\(error)"
        }
        switch process.wait(timeout: check.timeout) {
        case .accepted: return nil
        case .rejected(let status): return process.firstErrorLine ?? "exit status \(status)"
        case .couldNotRun(let reason): return process.firstErrorLine ?? reason
        case nil: return "the check took longer than --check-timeout"
        }
    }
}
