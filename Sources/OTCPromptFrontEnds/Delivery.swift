import OTCPromptCore
import OTCPromptLoop
import OTCPromptSettings

/// How a prompt's outcome reaches a caller that reads stdout and the exit status (the plain prompt, askpass):
/// what to print, what to say, which status to exit with. The executable carries it out.
public enum Delivery: Equatable, Sendable {
    /// Write the secret on stdout from its buffer, wipe it, exit 0 (74 when stdout cannot take it).
    case answer(SecretBytes)
    /// As `answer`, with no line break after it: a key file's bytes (cryptsetup).
    case key(SecretBytes)
    /// Write this text on stdout, exit 0 (74 when stdout cannot take it).
    case text(String)
    /// Exit with this status, nothing printed.
    case status(Int32)
    /// Say why on the terminal, then exit with this status.
    case failure(message: String, status: Int32)
    /// Raise this signal again, now that the terminal is restored (exit 128+N when it cannot be).
    case signal(Int32)

    /// The delivery of `outcome`, the same for every front end whose caller reads stdout and the status.
    public init(_ outcome: PromptOutcome) {
        switch outcome {
        case .submitted(let secret): self = .answer(secret)
        // ssh reads "yes" for a host-key question; a confirm prompt only looks at the status.
        case .confirmed(let yes): self = yes ? .text("yes") : .status(ExitStatus.rejected)
        case .cancelled, .callerGone: self = .status(ExitStatus.cancelled)
        case .terminalClosed: self = .status(ExitStatus.terminalClosed)
        case .rejected: self = .status(ExitStatus.rejected)
        case .checkCouldNotRun(let message): self = .failure(message: message, status: ExitStatus.checkCouldNotRun)
        case .timedOut: self = .status(ExitStatus.timedOut)
        case .speechFailed(let message): self = .failure(message: message, status: ExitStatus.usage)
        case .signalled(let signal): self = .signal(signal)
        }
    }

    /// Whether the caller is given an answer: then an askpass caller that asks the same again did not accept it.
    public var answers: Bool {
        switch self {
        case .answer, .key, .text: true
        case .status, .failure, .signal: false
        }
    }
}
