import OTCPromptCore

/// The terminal as the loop uses it; the live one is `OTCPromptTerminal.Terminal`, tests use a
/// scripted one.
public protocol PromptTerminal: AnyObject {
    @discardableResult func write(_ text: String) -> Bool
    /// Writes a message for the user on lines of its own, every line made visible (`UntrustedText`).
    @discardableResult func writeLine(_ message: String) -> Bool
    /// The window's width in columns, nil when unknown.
    var columns: Int? { get }
    func enterRawMode(bracketedPaste: Bool) throws
    /// Leaves the terminal as it was found; raw mode may be entered again afterwards.
    func restore()
    /// Waits at most `timeout` (nil: until something happens) for bytes, a signal, or one of
    /// `others` (a running check, a voice starting) to become readable.
    func read(timeout: Duration?, alsoWatching others: [Int32]) -> TerminalInput
    /// Discards whatever has been typed and not yet read.
    func discardInput()
    /// Stops the process as Ctrl-Z would (it returns once continued, or at once if the stop is
    /// dropped).
    func stopProcess()
}

/// A running `--check` command; the live one is `OTCPromptTerminal.CheckCommand`.
public protocol CheckProcess: AnyObject {
    /// Readable when the check writes to stderr or ends, so the loop wakes for it.
    var descriptor: Int32 { get }
    /// The verdict once the process has ended, without waiting; nil while it runs.
    func verdict() -> CheckVerdict?
    /// Ends the process (and its group) and reaps it.
    func kill()
    /// The first line it wrote to stderr, to be said when it rejects the code.
    var firstErrorLine: String? { get }
}

/// Everything outside the session that the loop touches, as values a test can replace.
public struct PromptSystem {
    public var terminal: any PromptTerminal
    /// Time on a monotonic clock; only differences matter.
    public var now: () -> Duration
    /// Starts `command` with `code` on its stdin.
    public var startCheck: (_ command: String, _ code: String) throws -> any CheckProcess
    /// Keeps the field's memory out of swap where the system allows it; false where it does not.
    public var lockInMemory: (UnsafeRawBufferPointer) -> Bool

    public init(
        terminal: any PromptTerminal, now: @escaping () -> Duration,
        startCheck: @escaping (_ command: String, _ code: String) throws -> any CheckProcess,
        lockInMemory: @escaping (UnsafeRawBufferPointer) -> Bool
    ) {
        self.terminal = terminal
        self.now = now
        self.startCheck = startCheck
        self.lockInMemory = lockInMemory
    }
}
