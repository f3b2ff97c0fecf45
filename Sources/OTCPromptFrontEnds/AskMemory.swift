import OTCPromptCore

/// Where `AskMemory` keeps its records, and the facts it compares them with: the per-user state directory
/// (`StateDirectory` in OTCPromptHost) and the process's parent, clock and login session.
public protocol AskStore {
    func read(_ name: String) -> String?
    func write(_ name: String, _ text: String)
    func remove(_ name: String)
    /// The caller: the askpass program's parent (sudo, ssh, git), which asks again from the same process.
    var callerProcess: Int32 { get }
    /// Now, in seconds since boot: it never jumps with the wall clock.
    var now: Int64 { get }
    /// This login session, to give one-time notices once per session.
    var thisLoginSession: String { get }
}

/// What is remembered between askpass calls: was this question asked again after its answer was given (then the
/// answer was not accepted), and has a one-time notice been given in this login session. No secret: a process ID,
/// a digest of the prompt and a time (`AskRecord`).
public struct AskMemory {
    public let store: (any AskStore)?

    public init(store: (any AskStore)?) {
        self.store = store
    }

    static let lastAnswer = "last-answer"

    /// Whether the caller asks `prompt` again within `AskRecord.retryWindow` of the answer it was given: it did not
    /// accept it.
    public func isAskedAgain(_ prompt: String) -> Bool {
        guard let store, let text = store.read(Self.lastAnswer), let record = AskRecord(line: text) else {
            return false
        }
        return record.isAskedAgain(by: store.callerProcess, prompt: prompt, at: store.now)
    }

    /// Remembers that `prompt` was answered now (the next ask is a retry), or forgets it when the prompt ended
    /// otherwise (cancelled, timed out: a new ask is a new question).
    public func remember(_ prompt: String, answered: Bool) {
        guard let store else { return }
        guard answered else { return store.remove(Self.lastAnswer) }
        let record = AskRecord(callerProcess: store.callerProcess, prompt: prompt, answeredAt: store.now)
        store.write(Self.lastAnswer, record.line)
    }

    /// True the first time `notice` is given in this login session (always, without a store).
    public func isFirstTimeThisSession(_ notice: String) -> Bool {
        guard let store else { return true }
        let name = "notice-" + String(AskRecord.digest(notice), radix: 16)
        let session = store.thisLoginSession
        if store.read(name) == session { return false }
        store.write(name, session)
        return true
    }
}
