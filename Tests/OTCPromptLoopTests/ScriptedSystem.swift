import OTCPromptCore
import OTCPromptLoop
import OTCPromptTestSupport

/// A clock that moves only when the scripted terminal says time has passed.
final class ManualClock {
    var now: Duration = .seconds(100)
}

/// A terminal that plays a script: each step is what one wait returns, after how long. A
/// `.timedOut` step lasts exactly the timeout the loop asked for, as a real terminal's would;
/// when the script runs out the terminal is closed, so every test ends.
final class ScriptedTerminal: PromptTerminal {
    struct Step {
        var input: TerminalInput
        var after: Duration
    }

    private var script: [Step]
    let clock: ManualClock
    /// What the loop did to the terminal, in order: "raw", "restore", "stop", "write".
    private(set) var calls: [String] = []
    private(set) var written = ""
    /// The timeout of every wait, in order (nil: wait until something happens).
    private(set) var timeouts: [Duration?] = []
    /// The clock when each scripted step was delivered.
    private(set) var deliveredAt: [Duration] = []
    var columns: Int?
    /// What `canStopProcess` answers: false plays an orphaned process group.
    var canStopProcess = true
    /// The caller descriptors each wait watched, in order.
    private(set) var callerWatched: [[Int32]] = []

    init(clock: ManualClock, _ script: [Step]) {
        self.clock = clock
        self.script = script
    }

    func write(_ text: String) -> Bool {
        if !text.isEmpty { calls.append("write") }
        written += text
        return true
    }

    func writeLine(_ message: String) -> Bool {
        write(UntrustedText.visibleLines(message).joined(separator: "\r\n") + "\r\n")
    }

    func enterRawMode(bracketedPaste: Bool) throws { calls.append("raw") }
    func restore() { calls.append("restore") }
    /// How many restores discarded what was typed and not read, in the same step.
    private(set) var restoresDiscardingInput = 0
    func restore(discardingInput: Bool) {
        calls.append("restore")
        if discardingInput { restoresDiscardingInput += 1 }
    }
    /// The keys each restore gave back to the terminal, in order.
    private(set) var givenBack: [[UInt8]] = []
    func restore(givingBack bytes: [UInt8]) {
        restore(discardingInput: true)
        givenBack.append(bytes)
    }
    func reassertRawMode(bracketedPaste: Bool) throws { calls.append("reassert") }
    func stopProcess() { calls.append("stop") }
    func discardInput() { calls.append("discard") }
    func askKeyboardProtocol() { calls.append("ask keyboard") }
    func setKeyboardDisambiguation(_ on: Bool) { calls.append(on ? "disambiguate" : "no disambiguation") }
    /// A voice still starting is waited for: the scripted clock moves to when it starts, at most `timeout`.
    var startup: ScriptedSpeechStartup?
    func waitUntilReadable(_ descriptor: Int32, timeout: Duration) -> Bool {
        calls.append("await voice")
        guard let startup else { return false }
        let ready = startup.endsAt <= clock.now + timeout
        clock.now = min(max(clock.now, startup.endsAt), clock.now + timeout)
        return ready
    }

    func read(timeout: Duration?, alsoWatching others: [Int32], callerWatching caller: [Int32]) -> TerminalInput {
        timeouts.append(timeout)
        callerWatched.append(caller)
        guard !script.isEmpty else { return .closed }
        let step = script.removeFirst()
        if step.input == .timedOut {
            guard let timeout else { return .closed }  // a real terminal would wait forever
            clock.now += timeout
        } else {
            clock.now += step.after
        }
        deliveredAt.append(clock.now)
        return step.input
    }
}

extension ScriptedTerminal.Step {
    static func bytes(_ text: String, after: Duration = .milliseconds(100)) -> Self {
        Self(input: .bytes(Array(text.utf8)), after: after)
    }
    static var timeout: Self { Self(input: .timedOut, after: .zero) }
    /// The caller waiting for the answer hangs up.
    static func callerGone(after: Duration = .zero) -> Self { Self(input: .callerGone, after: after) }
    static func signal(_ number: Int32) -> Self { Self(input: .signal(number), after: .zero) }
    static func checkReady(after: Duration = .zero) -> Self { Self(input: .otherReady, after: after) }
    /// The voice's start-up (or a check) has news: the loop's wait ends for it.
    static func voiceReady(after: Duration = .zero) -> Self { Self(input: .otherReady, after: after) }
}

/// A `--check` process whose verdict arrives at a set time on the manual clock.
final class ScriptedCheck: CheckProcess {
    let clock: ManualClock
    let decidedAt: Duration
    let outcome: CheckVerdict
    let firstErrorLine: String?
    private(set) var killed = false

    init(clock: ManualClock, decidesAfter delay: Duration, _ outcome: CheckVerdict, errorLine: String? = nil) {
        self.clock = clock
        self.decidedAt = clock.now + delay
        self.outcome = outcome
        self.firstErrorLine = errorLine
    }

    var descriptor: Int32 { 99 }

    func verdict() -> CheckVerdict? {
        killed ? .killed(by: 15) : clock.now >= decidedAt ? outcome : nil
    }

    func kill() { killed = true }
}

/// Runs a code prompt on `script`; returns the outcome, the terminal and what was spoken.
struct LoopRun {
    let outcome: PromptOutcome
    let terminal: ScriptedTerminal
    let spoken: [Announcement]
    /// The check commands started, with the code each was given.
    let checksStarted: [(command: String, code: String)]
    let secretLocked: Bool

    init(
        _ configuration: PromptConfiguration = PromptConfiguration(), check: CheckSettings? = nil,
        checks: [(ManualClock) -> ScriptedCheck] = [], script: [ScriptedTerminal.Step], failingStart: Bool = false,
        dumbTerminal: Bool = false, escapeDelay: Duration = .milliseconds(50), voice: ScriptedVoice? = nil,
        caller: [Int32] = [], suspension: Suspension = .asAJob, canStopProcess: Bool = true,
        asksKeyboardProtocol: Bool = false
    ) {
        let clock = ManualClock()
        let terminal = ScriptedTerminal(clock: clock, script)
        terminal.canStopProcess = canStopProcess
        let speech = FailingSpeechBackend(failsAt: voice?.failsAt)
        let startup = voice.map { ScriptedSpeechStartup(clock: clock, voice: $0, backend: speech) }
        terminal.startup = startup
        // The live wiring: the held voice behind the one switch to text lines on the terminal.
        let fallback = startup.map {
            SpeechFallback(
                voice: $0.held, text: TextSpeechBackend { _ = terminal.writeLine($0) }, wording: Wording(language: .en))
        }
        var pendingChecks = checks
        var started: [(String, String)] = []
        var locked = false
        let system = PromptSystem(
            terminal: terminal, now: { clock.now },
            startCheck: { command, code in
                started.append((command, code))
                if failingStart { throw ScriptedSpawnError() }
                return pendingChecks.removeFirst()(clock)
            },
            lockInMemory: { buffer in
                locked = buffer.count > 0
                return true
            }, caller: caller, suspension: suspension)
        var loop = PromptLoop(
            session: PromptSession(configuration: configuration), renderer: LineRenderer(), system: system,
            speech: fallback ?? speech, escapeDelay: escapeDelay,
            capabilities: TerminalCapabilities(isDumb: dumbTerminal, colorDepth: .none, isUTF8: true), check: check,
            speechStartup: startup, speechFallback: fallback, asksKeyboardProtocol: asksKeyboardProtocol)
        outcome = loop.run()
        self.terminal = terminal
        spoken = speech.spoken
        checksStarted = started
        secretLocked = locked
    }

    var events: [Announcement.Event] { spoken.map(\.event) }
}

/// What a failed spawn (EMFILE, ENOMEM) throws in the scripted system.
struct ScriptedSpawnError: Error, CustomStringConvertible {
    var description: String { "cannot run the --check command: posix_spawn failed: Too many open files" }
}

/// How a scripted voice's start-up ends, and when (on the manual clock, from the loop's start).
struct ScriptedVoice {
    var endsAfter: Duration
    var outcome: Outcome
    /// The announcement (1 is the first said) at which the voice stops mid-prompt; nil: never.
    var failsAt: Int?

    init(endsAfter: Duration, outcome: Outcome, failsAt: Int? = nil) {
        self.endsAfter = endsAfter
        self.outcome = outcome
        self.failsAt = failsAt
    }

    enum Outcome {
        case speaks
        /// Speech turned out not to be there (no audio device, a server that did not answer).
        case unavailable(SpeechFailure)
        case fails(String)
    }
}

/// A voice that starts at a set time on the manual clock; its backend is the run's recording one.
final class ScriptedSpeechStartup: SpeechStartup {
    let held = HeldSpeech()
    let clock: ManualClock
    let endsAt: Duration
    let voice: ScriptedVoice
    let backend: FailingSpeechBackend

    init(clock: ManualClock, voice: ScriptedVoice, backend: FailingSpeechBackend) {
        self.clock = clock
        self.endsAt = clock.now + voice.endsAfter
        self.voice = voice
        self.backend = backend
    }

    var descriptor: Int32 { 98 }

    func takeOutcome() -> SpeechStartOutcome? {
        guard clock.now >= endsAt else { return nil }
        switch voice.outcome {
        case .speaks:
            return .started(SpeechStarted(held: held, backend: backend))
        case .unavailable(let failure):
            return .started(SpeechStarted(held: held, backend: UnavailableVoice(failure)))
        case .fails(let message):
            return .failed(message)
        }
    }
}
