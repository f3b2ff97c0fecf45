import OTCPromptCore
import OTCPromptTerminal

/// `--stdin`: no prompt at all; one line of standard input is read and checked like a paste.
enum StandardInputCode {
    static func run(configuration: PromptConfiguration) -> Int32 {
        let line: String
        do {
            line = try StandardInput.readLine()
        } catch {
            StandardError.writeLine("otc-prompt: \(error)")
            return ExitStatus.outputFailed
        }
        var scanner = PasteScanner(charset: configuration.charset, length: configuration.length)
        scanner.scan(line)
        let code: [Character]
        switch scanner.result {
        case .characters(let characters) where characters.count == configuration.length && !scanner.overflowed:
            code = characters
        case .extracted(let characters):
            code = characters
        default:
            let kind = configuration.charset == .digits ? "digit" : "character"
            StandardError.writeLine(
                "otc-prompt: standard input holds no valid \(configuration.length)-\(kind) code; nothing printed")
            return ExitStatus.invalidInput
        }
        do {
            try StandardOutput.write(String(code))
            return ExitStatus.submitted
        } catch {
            StandardError.writeLine("otc-prompt: \(error)")
            return ExitStatus.outputFailed
        }
    }
}
