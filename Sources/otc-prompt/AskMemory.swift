import OTCPromptCore
import OTCPromptTerminal

/// The per-user store (`StateDirectory`) as the command uses it: was this question asked again after
/// its answer was rejected, and has a one-time notice been given in this login session.
struct AskMemory {
    let store: StateDirectory?

    private static let lastAnswer = "last-answer"

    /// Whether the caller (our parent) asks `prompt` again within `AskRecord.retryWindow` of the
    /// answer it was given: it did not accept it.
    func isAskedAgain(_ prompt: String) -> Bool {
        guard let text = store?.read(Self.lastAnswer), let record = AskRecord(line: text) else { return false }
        return record.isAskedAgain(
            by: StateDirectory.parentProcess, prompt: prompt, at: StateDirectory.secondsSinceBoot)
    }

    /// Remembers that `prompt` was answered now (the next ask is a retry), or forgets it when the prompt
    /// ended otherwise (cancelled, timed out: a new ask is a new question).
    func remember(_ prompt: String, answered: Bool) {
        guard let store else { return }
        guard answered else { return store.remove(Self.lastAnswer) }
        let record = AskRecord(
            callerProcess: StateDirectory.parentProcess, prompt: prompt, answeredAt: StateDirectory.secondsSinceBoot)
        store.write(Self.lastAnswer, record.line)
    }

    /// True the first time `notice` is given in this login session (always, without a store).
    func isFirstTimeThisSession(_ notice: String) -> Bool {
        guard let store else { return true }
        let name = "notice-" + String(AskRecord.digest(notice), radix: 16)
        let session = StateDirectory.loginSession
        if store.read(name) == session { return false }
        store.write(name, session)
        return true
    }
}
