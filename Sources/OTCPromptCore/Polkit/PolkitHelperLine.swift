/// One line from polkit-agent-helper-1, the setuid program (or socket service) that runs polkit's PAM conversation
/// for an agent: a question for a field, a message to say and show, or the end.
///
/// The helper escapes each line C-style; polkit's own agent library unescapes the whole line (`g_strcompress`)
/// before it looks at the prefix, and so does this.
public enum PolkitHelperLine: Equatable, Sendable {
    /// `PAM_PROMPT_ECHO_OFF` (a secret: masked) or `PAM_PROMPT_ECHO_ON` (visible text): PAM's question.
    case prompt(String, echo: Bool)
    /// `PAM_TEXT_INFO`: a cue ("Please touch the device."), said and shown.
    case info(String)
    /// `PAM_ERROR_MSG`: an error from a module, said and shown.
    case error(String)
    /// The password was accepted and polkitd told so.
    case success
    /// PAM refused, or the helper could not tell polkitd.
    case failure
    /// A line polkit's protocol does not have: the conversation ends as failed, as polkit's library ends it.
    case unknown

    /// The line `bytes` (without its newline) says. PAM's text is the helper's: made visible (no escape sequence
    /// reaches the terminal), never trusted as a command.
    public init(_ bytes: some Collection<UInt8>) {
        let line = Self.unescape(bytes)
        func text(after prefix: String) -> String? {
            let prefixBytes = Array(prefix.utf8)
            guard line.starts(with: prefixBytes) else { return nil }
            return String(decoding: line.dropFirst(prefixBytes.count), as: UTF8.self)
        }
        if let prompt = text(after: "PAM_PROMPT_ECHO_OFF ") {
            self = .prompt(prompt, echo: false)
        } else if let prompt = text(after: "PAM_PROMPT_ECHO_ON ") {
            self = .prompt(prompt, echo: true)
        } else if let message = text(after: "PAM_ERROR_MSG ") {
            self = .error(message)
        } else if let message = text(after: "PAM_TEXT_INFO ") {
            self = .info(message)
        } else if text(after: "SUCCESS") != nil {
            self = .success
        } else if text(after: "FAILURE") != nil {
            self = .failure
        } else {
            self = .unknown
        }
    }

    /// The C-style escapes undone as GLib's `g_strcompress` does: `\b \f \n \r \t \v`, up to three octal digits,
    /// any other escaped byte as itself; a backslash at the end is dropped.
    public static func unescape(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var iterator = Array(bytes)[...]
        while let byte = iterator.popFirst() {
            guard byte == UInt8(ascii: "\\") else {
                output.append(byte)
                continue
            }
            guard let escaped = iterator.popFirst() else { break }
            switch escaped {
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                var value = UInt32(escaped - UInt8(ascii: "0"))
                for _ in 0..<2 {
                    guard let next = iterator.first, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(next) else {
                        break
                    }
                    value = value * 8 + UInt32(next - UInt8(ascii: "0"))
                    iterator = iterator.dropFirst()
                }
                output.append(UInt8(truncatingIfNeeded: value))
            case UInt8(ascii: "b"): output.append(0x08)
            case UInt8(ascii: "f"): output.append(0x0C)
            case UInt8(ascii: "n"): output.append(0x0A)
            case UInt8(ascii: "r"): output.append(0x0D)
            case UInt8(ascii: "t"): output.append(0x09)
            case UInt8(ascii: "v"): output.append(0x0B)
            default: output.append(escaped)
            }
        }
        return output
    }
}
