import OTCPromptCore
import OTCPromptFrontEnds
import OTCPromptHost
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
        let code: String
        switch StdinFrontEnd.code(in: read, configuration: configuration) {
        case .success(let found): code = found
        case .failure(let failure): return fail(failure)
        }
        if let check, let reason = rejection(of: code, by: check) {
            return fail(StdinFrontEnd.rejected(code, reason: reason, configuration: configuration))
        }
        do {
            try StandardOutput.write(String(code), encoding: encoding)
            return ExitStatus.submitted
        } catch {
            StandardError.writeLine("otc-prompt: \(error)")
            return ExitStatus.outputFailed
        }
    }

    private static func fail(_ failure: StdinFrontEnd.Failure) -> Int32 {
        StandardError.writeLine("otc-prompt: " + failure.message)
        return failure.status
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
