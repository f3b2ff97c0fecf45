import OTCPromptCore
import OTCPromptHost
import OTCPromptSystem

/// The field on the user's braille display, through BrlAPI: the session's view as one line of cells, with the cursor
/// where the next character goes, panned by the display's keys; the characters typed on the display's keyboard go
/// to the session as the terminal's do. Every BrlAPI call is made on a thread of its own: brltty is another process,
/// and a stuck one must never hold up a key (libbrlapi's requests wait for their answer with no deadline).
///
/// The display is taken when the first view comes, given back on `release` (the prompt stopped or over) and on
/// `close`; a prompt that is killed gives it back too, since brltty releases a tty when its client's socket closes.
public final class BrailleOutput: StatePresenting, KeyboardOfItsOwn {
    private let mailbox: BrailleMailbox
    /// Cleared once the thread has ended and its keys pipe is closed.
    private var keysOpen = true

    /// How long `release` waits for the display to be given back before the prompt stops (Ctrl-Z).
    static let releaseLimit: Duration = .milliseconds(300)
    /// How long `close` waits for the thread to end.
    static let closeLimit: Duration = .milliseconds(500)

    private init(mailbox: BrailleMailbox) {
        self.mailbox = mailbox
    }

    /// Starts the output for the prompt on the terminal open on `terminal`, or returns nil at once when there is
    /// nothing to start: `none` chosen, or no server that could answer (no `BRLAPI_HOST` and no brltty socket), which
    /// costs one `access`. Whose server it is is asked on the output's thread; a server that is not the user's to use,
    /// or one where the person at `location` is not, is never connected to by libbrlapi (`BrailleRoute.choose`).
    public static func start(
        _ choice: BrailleChoice, location: SessionLocation, environment: [String: String], terminal: Int32
    ) -> BrailleOutput? {
        guard choice != .none, BrailleServerProbe.mayAnswer(environment: environment),
            let mailbox = try? BrailleMailbox()
        else { return nil }
        let worker = BrailleWorker(
            mailbox: mailbox, choice: choice, location: location, environment: environment, terminal: terminal)
        do { try DetachedThread.start { worker.run() } } catch { return nil }
        return BrailleOutput(mailbox: mailbox)
    }

    public func present(_ view: SessionView) {
        mailbox.post(view)
    }

    public func release() {
        mailbox.release(waitingAtMost: Self.releaseLimit)
    }

    /// Nothing at the line's end: the display is given back on `release`, which follows a stop or the end.
    public func end() {}

    public var descriptor: Int32? { keysOpen ? mailbox.keys.read : nil }

    public func takeKeys() -> [Key] {
        if keysOpen && !BrailleMailbox.drain(mailbox.keys.read) { keysOpen = false }
        return mailbox.takeKeys()
    }

    /// Gives the display back and ends the connection; waits for it at most `closeLimit`, since the process may exit
    /// next (and brltty releases the display then anyway).
    public func close() {
        mailbox.close(waitingAtMost: Self.closeLimit)
    }
}

extension BrailleServerProbe {
    /// Whether a BrlAPI server could be there at all: `BRLAPI_HOST` names one, or brltty's socket 0 exists.
    /// The corresponding C function is `access`.
    static func mayAnswer(environment: [String: String]) -> Bool {
        if !(environment["BRLAPI_HOST"] ?? "").isEmpty { return true }
        return RunningPrograms.exists(BrailleAddress.local(name: "0").path ?? "")
    }
}
