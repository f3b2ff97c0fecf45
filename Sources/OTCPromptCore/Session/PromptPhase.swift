/// Where a code prompt is. One value, so that no two of these hold at once (checking and over,
/// "checking" said with no check under way).
public enum PromptPhase: Equatable, Sendable {
    /// Keys edit the field.
    case editing
    /// The check rejected the code still shown: the next key that edits clears it first.
    case showingRejectedCode
    /// The field's code is with the check: editing keys wait in `queuedKeys`. `saidChecking`:
    /// "checking" has been said for this check (once per check).
    case checking(saidChecking: Bool)
    /// Submitted, cancelled, failed or timed out: keys do nothing.
    case finished
}

extension PromptSession {
    /// The prompt is over.
    public var isFinished: Bool { phase == .finished }
    /// The field's code is with the check.
    public var isChecking: Bool {
        if case .checking = phase { true } else { false }
    }
}
