import OTCPromptCore

/// What the loop reads from the terminal: bytes, or why the wait ended without any.
public enum PromptInput: Equatable, Sendable {
    case bytes([UInt8])
    /// The timeout passed with nothing to read.
    case timedOut
    /// A watched signal arrived (its number).
    case signal(Int32)
    /// The terminal hung up or reached end of input.
    case closed
    /// One of the other watched descriptors (a running check's, a starting voice's) became readable.
    case otherReady
}

/// The terminal as the loop uses it; the live one is `OTCPromptTerminal.Terminal`, tests use a
/// scripted one.
public protocol PromptTerminal: AnyObject {
    @discardableResult func write(_ text: String) -> Bool
    func enterRawMode(bracketedPaste: Bool) throws
    /// Leaves the terminal as it was found; raw mode may be entered again afterwards.
    func restore()
    /// Waits at most `timeout` (nil: until something happens) for bytes, a signal, or one of
    /// `others` (a running check, a voice starting) to become readable.
    func readInput(timeout: Duration?, alsoWatching others: [Int32]) -> PromptInput
    /// Discards whatever has been typed and not yet read.
    func discardInput()
    /// Stops the process as Ctrl-Z would (it returns once continued, or at once if the stop is
    /// dropped).
    func stopProcess()
}

/// How a `--check` process ended.
public enum CheckVerdict: Equatable, Sendable {
    case accepted
    case rejected
    /// It could not run at all (why, in words): no verdict on the code.
    case couldNotRun(String)

    /// The verdict of a shell that exited with `status`: 0 accepts; 126 and 127 are the shell saying the
    /// command could not be run or found (`sh -c`, POSIX), which says nothing about the code.
    public static func exited(_ status: Int32) -> CheckVerdict {
        switch status {
        case 0: .accepted
        case 126: .couldNotRun("the shell could not run the command (status 126)")
        case 127: .couldNotRun("the shell could not find the command (status 127)")
        default: .rejected
        }
    }

    /// The verdict of a check that something other than the prompt killed.
    public static func killed(by signal: Int32) -> CheckVerdict {
        .couldNotRun("it was killed by signal \(signal)")
    }
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
