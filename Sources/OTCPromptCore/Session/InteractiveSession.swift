/// What the prompt loop drives: a code prompt (`PromptSession`) or a yes/no question
/// (`ConfirmSession`). Keys and time go in, effects come out; nothing here does I/O.
public protocol InteractiveSession: Sendable {
    /// What to say and show when the prompt appears, and again after a resume.
    mutating func start() -> [PromptEffect]
    mutating func handle(_ key: Key) -> [PromptEffect]
    /// What the screen should show now.
    var snapshot: FieldSnapshot { get }
    /// Whether what is typed is a secret never shown: asked without `snapshot`, which copies what was typed.
    var masksInput: Bool { get }
    /// The session's language, for what the loop says on its own (a Ctrl-Z it cannot carry out).
    var wording: Wording { get }
    /// Time has moved on to `now` (since the prompt started): announcements that fell due.
    mutating func tick(at now: Duration) -> [PromptEffect]
    /// When the loop must wake next for `tick`, nil when nothing is due.
    func nextDeadline(after now: Duration) -> Duration?
    /// The time limit ran out.
    mutating func timedOut() -> [PromptEffect]
    /// Overwrites whatever secret the session holds; called once, at the end.
    mutating func wipe()
    /// Lends the memory that will hold the secret, to lock it in RAM; a question has none.
    func withSecretStorage(_ body: (UnsafeRawBufferPointer) -> Bool)

    /// The running `--check` has taken long enough to say "checking".
    mutating func checkIsSlow() -> [PromptEffect]
    mutating func checkAccepted() -> [PromptEffect]
    mutating func checkRejected(firstErrorLine: String?) -> [PromptEffect]
    mutating func checkCouldNotRun(reason: String, firstErrorLine: String?) -> [PromptEffect]
    mutating func checkTimedOut() -> [PromptEffect]
    /// A line begun before the prompt was shown or within its type-ahead grace was dropped whole,
    /// up to its Enter (`TypeAheadRule.discarded`): what to tell the user.
    func leftoverIgnored() -> [PromptEffect]
}

extension InteractiveSession {
    /// A field says nothing: its grace is zero, so no line is dropped after it appeared.
    public func leftoverIgnored() -> [PromptEffect] { [] }
}

extension PromptSession: InteractiveSession {
    public var masksInput: Bool { configuration.mask }

    public func withSecretStorage(_ body: (UnsafeRawBufferPointer) -> Bool) {
        _ = field.withReservedStorage(body)
        _ = field.withSecretStorage(body)
    }
}

/// A session with no field to check or keep secret: a question or a notice. The check calls never come.
public protocol SessionWithoutSecret: InteractiveSession {}

extension SessionWithoutSecret {
    public var masksInput: Bool { false }
    public mutating func wipe() {}
    public func withSecretStorage(_ body: (UnsafeRawBufferPointer) -> Bool) {}
    public mutating func checkIsSlow() -> [PromptEffect] { [] }
    public mutating func checkAccepted() -> [PromptEffect] { [] }
    public mutating func checkRejected(firstErrorLine: String?) -> [PromptEffect] { [] }
    public mutating func checkCouldNotRun(reason: String, firstErrorLine: String?) -> [PromptEffect] { [] }
    public mutating func checkTimedOut() -> [PromptEffect] { [] }
}

extension ConfirmSession: SessionWithoutSecret, TimedSession {}
extension NoticeSession: SessionWithoutSecret, TimedSession {}
