/// What one wait on the terminal produced: the live terminal (`OTCPromptTerminal.Terminal`) returns
/// it and the loop reads it, so both speak of the same value.
public enum TerminalInput: Equatable, Sendable {
    /// Bytes the user typed or pasted, as read, in UTF-8 (the terminal transcodes from its `TerminalEncoding`).
    case bytes([UInt8])
    /// The timeout passed before anything arrived.
    case timedOut
    /// A watched signal arrived (see `SignalWatcher`); it wins over pending input.
    case signal(Int32)
    /// End of file or hang-up: the terminal is gone, the prompt should end.
    case closed
    /// One of the other watched descriptors (a running check, a voice starting) is readable.
    case otherReady
    /// The caller waiting for the answer hung up (gpg-agent closed the pinentry's pipes): nobody is
    /// left to take the answer, and the terminal's next line belongs to whoever uses it next.
    case callerGone
}
