import OTCPromptCore
import OTCPromptSettings

/// `--stdin`: no prompt at all; one line of standard input is read and checked like a paste (`StandardInputLine`).
/// Reading the line and running the check stay in the program (OTCPromptProgram); what they mean is decided here.
public enum StdinFrontEnd {
    /// The code on the line, or why there is none (said on stderr) and the status to exit with.
    /// - Parameter line: nil when standard input is not text in the locale's charset.
    public static func code(in line: String?, configuration: PromptConfiguration) -> Result<String, Failure> {
        guard let line else {
            return .failure(
                Failure(
                    message: "standard input is not UTF-8 text; nothing was printed", status: ExitStatus.invalidInput))
        }
        guard let code = StandardInputLine.code(in: line, charset: configuration.charset, length: configuration.length)
        else {
            return .failure(
                Failure(
                    message: StandardInputLine.problem(charset: configuration.charset, length: configuration.length),
                    status: ExitStatus.invalidInput))
        }
        return .success(String(code))
    }

    /// The `--check` command's rejection as said on stderr: its reason, the code masked where the field would be.
    public static func rejected(_ code: String, reason: String, configuration: PromptConfiguration) -> Failure {
        // A free-text secret is always treated as masked, as the interactive field masks it.
        let mask = configuration.mask || configuration.charset == .any
        let said = CheckErrorLine.sayable(reason, code: code, mask: mask)
        return Failure(
            message: "code rejected by --check" + (said.map { ": " + $0 } ?? ""), status: ExitStatus.rejected)
    }

    /// Why no code was printed, and the exit status that says so.
    public struct Failure: Error, Equatable {
        public var message: String
        public var status: Int32
    }
}
