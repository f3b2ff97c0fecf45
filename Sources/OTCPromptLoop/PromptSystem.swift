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
    /// Leaves the terminal as it was found, discarding in the same step what has been typed and not yet read:
    /// nothing typed for the prompt reaches the next program, and nothing typed after it is lost.
    func restore(discardingInput: Bool)
    /// `restore(discardingInput: true)`, then `bytes` (keys typed after the Esc that ended the prompt, read with it)
    /// go back to the front of what the next program reads, with what was typed after them, in order, as if typed
    /// now. Where the system refuses to take keys back, they are discarded with the rest.
    func restore(givingBack bytes: [UInt8])
    /// Sets raw mode again after someone else's stop, with no moment of echo in between.
    func reassertRawMode(bracketedPaste: Bool) throws
    /// Waits at most `timeout` (nil: until something happens) for bytes, a signal, one of `others`
    /// (a running check, a voice starting) to become readable, or one of `caller` to hang up
    /// (`.callerGone`, which wins over bytes waiting on the terminal).
    func read(timeout: Duration?, alsoWatching others: [Int32], callerWatching caller: [Int32]) -> TerminalInput
    /// Waits at most `timeout` for `descriptor` alone (a voice still starting) to become readable, reading nothing
    /// from the terminal; whether it did.
    func waitUntilReadable(_ descriptor: Int32, timeout: Duration) -> Bool
    /// Discards whatever has been typed and not yet read.
    func discardInput()
    /// Asks whether the terminal has kitty's keyboard protocol, then for its primary device attributes
    /// (`KeyboardProtocol`); the answers come as input.
    func askKeyboardProtocol()
    /// Turns kitty's "disambiguate" keyboard mode on or off; `restore` turns it off too.
    func setKeyboardDisambiguation(_ on: Bool)
    /// Whether `stopProcess` would really stop: false where nothing could continue the process (its
    /// process group is orphaned, `code=$(otc-prompt)` at a shell, so the kernel drops the stop) or
    /// where the stop signal was ignored when the prompt started.
    var canStopProcess: Bool { get }
    /// Stops the process as Ctrl-Z would (it returns once continued, or at once if the stop is
    /// dropped).
    func stopProcess()
}

extension PromptTerminal {
    /// A wait with no caller to watch.
    public func read(timeout: Duration?, alsoWatching others: [Int32]) -> TerminalInput {
        read(timeout: timeout, alsoWatching: others, callerWatching: [])
    }
}

/// What Ctrl-Z may do.
public enum Suspension: Sendable {
    /// Stop like any job where something can continue it; elsewhere say it cannot, keeping the field.
    case asAJob
    /// Never stop: the dialog's terminal is not ours, and a stop sent to our process group would stop
    /// the caller waiting for the answer (gpg-agent) with nobody to continue either.
    case refusedWhileCallerWaits
}

/// A running `--check` command; the live one is `OTCPromptHost.CheckCommand`.
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

/// What happens outside the prompt that its user should hear while it asks (other questions waiting their turn).
public protocol OutsideEvents: AnyObject {
    /// Readable when something may have happened; the loop then asks `news(openingHeard:)`.
    var descriptor: Int32 { get }
    /// What to tell the user now, read without waiting; empty when what happened is nothing to them, or when it is
    /// kept because the question's first sentence has not been heard yet (`openingHeard`): news never cuts it.
    func news(openingHeard: Bool) -> [String]
    /// Whether news is kept for later (`news(openingHeard:)`): the loop looks again soon, with nothing to wake it.
    var keepsNews: Bool { get }
    /// What waits outside, said after a readback (Ctrl-R, or `?` where it types nothing): recomputed now.
    func waiting() -> String?
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
    /// The descriptors of a caller waiting for the answer (gpg-agent's Assuan pipe): their hang-up
    /// ends the prompt as `.callerGone`, so no prompt outlives its caller and takes a later line.
    public var caller: [Int32]
    public var suspension: Suspension
    /// News from outside, said while the prompt asks, without taking its keys.
    public var outside: (any OutsideEvents)?

    public init(
        terminal: any PromptTerminal, now: @escaping () -> Duration,
        startCheck: @escaping (_ command: String, _ code: String) throws -> any CheckProcess,
        lockInMemory: @escaping (UnsafeRawBufferPointer) -> Bool, caller: [Int32] = [],
        suspension: Suspension = .asAJob, outside: (any OutsideEvents)? = nil
    ) {
        self.terminal = terminal
        self.now = now
        self.startCheck = startCheck
        self.lockInMemory = lockInMemory
        self.caller = caller
        self.suspension = suspension
        self.outside = outside
    }
}
