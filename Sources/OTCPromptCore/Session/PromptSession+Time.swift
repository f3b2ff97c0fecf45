/// What a session knows of time: the `--timeout` countdown and the last moment the program
/// reported. Time only ever arrives as a value, so sessions stay pure and tests jump ahead.
struct SessionClock: Equatable, Sendable {
    var countdown: Countdown?
    /// The time since the prompt started, as of the program's last `tick(at:)`.
    var now: Duration = .zero

    init(timeLimit: Duration?) {
        countdown = timeLimit.map(Countdown.init(total:))
    }

    /// What happens at `now`.
    enum Tick: Equatable {
        case nothing
        case mark(Duration)
        case ranOut
    }

    mutating func tick(at now: Duration) -> Tick {
        self.now = max(self.now, now)
        guard var countdown else { return .nothing }
        defer { self.countdown = countdown }
        if countdown.hasRunOut(at: self.now) { return .ranOut }
        return countdown.markDue(at: self.now).map(Tick.mark) ?? .nothing
    }

    func nextDeadline(after now: Duration) -> Duration? {
        countdown?.nextDeadline(after: max(self.now, now))
    }

    /// The time left as it is said; nil without a time limit.
    var spokenTimeLeft: SpokenDuration? {
        countdown.map { SpokenDuration(remaining: $0.remaining(at: now)) }
    }

    /// Ctrl-T's answer.
    func timeLeftText(_ wording: Wording) -> String {
        spokenTimeLeft.map(wording.timeLeft) ?? wording.noTimeLimit
    }

    /// What a session says at `now`: the `time-left` announcement due, if any; nil once the time
    /// has run out (the session then ends with its own `timedOut()`).
    mutating func effects(at now: Duration, _ wording: Wording) -> [PromptEffect]? {
        let tick = tick(at: now)
        if tick == .ranOut { return nil }
        return announcement(for: tick, wording).map { [.announce($0)] } ?? []
    }

    /// A `time-left` or `timeout` announcement for `tick`; nil for nothing.
    func announcement(for tick: Tick, _ wording: Wording) -> Announcement? {
        switch tick {
        case .nothing: return nil
        case .mark(let mark): return Announcement(.timeLeft, wording.timeLeft(SpokenDuration(mark: mark)))
        case .ranOut: return Announcement(.timeout, wording.timeUp)
        }
    }
}

/// A session with a `--timeout` clock: code prompts, questions and notices tick the same way.
protocol TimedSession {
    var isFinished: Bool { get }
    var wording: Wording { get }
    var clock: SessionClock { get set }
    /// The time ran out: the session's last words and `.timeout`.
    mutating func timedOut() -> [PromptEffect]
}

/// `--timeout`. The program calls `tick(at:)` whenever it wakes (before handling the keys that
/// woke it) and sleeps no later than `nextDeadline(after:)`.
extension TimedSession {
    /// Time has passed: the `time-left` announcement due at `now` (30 s and 10 s before the end,
    /// each once), or, once the time has run out, `timedOut()`'s effects. Also what Ctrl-T
    /// measures from. `now` is the time since the prompt started.
    public mutating func tick(at now: Duration) -> [PromptEffect] {
        guard !isFinished else { return [] }
        return clock.effects(at: now, wording) ?? timedOut()
    }

    /// When the program must call `tick(at:)` next (time since the start); nil when no time
    /// limit is set or the prompt is over.
    public func nextDeadline(after now: Duration) -> Duration? {
        isFinished ? nil : clock.nextDeadline(after: now)
    }
}

extension PromptSession: TimedSession {}

extension PromptSession {
    /// The time ran out: the final `timeout` announcement and `.timeout` (exit 124). During a
    /// check the program stops the check; keys typed meanwhile are dropped.
    public mutating func timedOut() -> [PromptEffect] {
        guard !isFinished else { return [] }
        phase = .finished
        queuedKeys.removeAll()
        return [announce(.timeout, wording.timeUp), .timeout]
    }

    /// Ctrl-T: the time left (rounded, as of the last `tick(at:)`), or that there is no limit.
    /// The key help, with Ctrl-T when there is a time limit to ask about.
    func keyHelp() -> PromptEffect {
        var text = wording.help(field: field, style: style)
        if clock.countdown != nil { text += " " + wording.timeLeftKey }
        return announce(.help, text)
    }

    func timeLeft() -> [PromptEffect] {
        [announce(.timeLeft, clock.timeLeftText(wording))]
    }
}
