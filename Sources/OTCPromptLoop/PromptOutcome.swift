import OTCPromptCore

/// How a prompt ended.
public enum PromptOutcome: Equatable, Sendable {
    /// The secret, in the field's buffer: the deliverer writes it out and wipes it.
    case submitted(SecretBytes)
    /// A yes/no question was answered.
    case confirmed(Bool)
    case cancelled
    /// Every `--check` attempt was rejected.
    case rejected
    /// The `--check` command could not run (the message says why).
    case checkCouldNotRun(String)
    /// `--timeout` ran out.
    case timedOut
    /// The terminal went away (hang-up or end of input).
    case terminalClosed
    /// The caller waiting for the answer hung up (`PromptSystem.caller`): the prompt ended as cancelled,
    /// with nothing more read from the terminal.
    case callerGone
    /// Speech could not start as the command line asked (the message says why): a usage error.
    case speechFailed(String)
    /// A signal asked the process to end: it is raised again once the terminal is restored.
    case signalled(Int32)
}

extension PromptOutcome {
    /// The prompt ended as its caller expects a prompt to end, and the process goes on: not a signal, a terminal gone
    /// or a voice that could not start, after which the process ends with the terminal restored.
    public var isOrdinary: Bool {
        switch self {
        case .terminalClosed, .speechFailed, .signalled: false
        case .submitted, .confirmed, .cancelled, .rejected, .checkCouldNotRun, .timedOut, .callerGone: true
        }
    }
}
