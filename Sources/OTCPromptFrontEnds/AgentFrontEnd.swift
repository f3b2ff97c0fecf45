import OTCPromptCore
import OTCPromptLoop

/// `--agent`: systemd's password agents' protocol (`AskFile`), each request asked as any other caller's, its
/// outcome answered as one datagram (`AgentAnswer`). The watched directories, the files and the socket stay in the
/// executable and `OTCPromptTerminal`.
public struct AgentFrontEnd: Sendable {
    public let language: Language
    public let verbosity: Verbosity

    public init(language: Language, verbosity: Verbosity) {
        self.language = language
        self.verbosity = verbosity
    }

    /// The request `file` makes at `now` (CLOCK_MONOTONIC µs), found in a directory of `origin`, with `waiting` more
    /// behind it and `news` (a request withdrawn) said first.
    ///
    /// The message is the label (scrubbed: a querier's text is outside input); "disk sda2" from `Id=` (said as a
    /// program's claim, not the system's, unless `origin` is the system: `Wording.agentPurpose`), the time
    /// the querier still waits and how many more wait are the lines before it. `Echo=0` is a masked secret,
    /// `Echo=1` visible text; the field's time limit is the querier's. Keys typed before it appeared, or within
    /// the grace of a confirmation, are no answer: it may appear while the user types something else.
    ///
    /// One of systemd's own requests (`SystemAsk`) is said in the user's words instead ("Passphrase for disk root",
    /// its disk named in the label), opened on a retry (`attempt` above 1) by the news of it: "Wrong passphrase, try 2."
    public func request(
        _ file: AskFile, from origin: AskOrigin, waiting: Int, nowMicroseconds now: UInt64, news: [String] = [],
        attempt: Int = 1
    ) -> Request {
        let wording = Wording(language: language)
        let message = file.message.map(UntrustedText.visibleLines)?.filter { !$0.isEmpty } ?? []
        let timeLimit = file.timeLeft(atMicroseconds: now)
        let asked = Self.systemAsk(file, from: origin)
        var details: [String] = []
        if asked == nil, let purpose = AskPurpose(id: file.id) {
            details.append(wording.agentPurpose(purpose, from: origin))
        }
        if waiting > 0 { details.append(wording.agentMoreWaiting(waiting)) }
        let labels = ConfirmLabels(
            yes: file.okLabel.map(UntrustedText.visible), no: file.notOKLabel.map(UntrustedText.visible),
            cancel: file.cancelLabel.map(UntrustedText.visible))
        var request: Request
        switch file.kind {
        case .password:
            // Several lines: the last is the label, the others are said before it.
            var configuration = PromptConfiguration.freeText(
                label: asked.map(wording.systemAskLabel) ?? message.last ?? wording.agentDefaultLabel, mask: !file.echo,
                language: language, verbosity: verbosity, timeLimit: timeLimit)
            configuration.details = details + (asked.map(wording.systemAskDetails) ?? Array(message.dropLast()))
            configuration.news = news + (asked.flatMap { Self.retryNews($0, attempt: attempt, wording: wording) } ?? [])
            request = Request(.field(configuration), typeAhead: .discarded(grace: ConfirmSession.grace))
        case .question:
            request = .question(
                ConfirmSession(
                    question: message.last ?? wording.agentDefaultLabel, details: details + message.dropLast(),
                    labels: labels, language: language, verbosity: verbosity, timeLimit: timeLimit))
            request = request.withDetails(news)
        case .notice:
            request = .notice(
                NoticeSession(
                    message: message.last ?? wording.agentDefaultLabel, details: details + message.dropLast(),
                    takesEnter: true, language: language, verbosity: verbosity, timeLimit: timeLimit))
            request = request.withDetails(news)
        }
        return request
    }

    /// What the agent shows and says while nothing is asked: "Waiting for password requests.", after `news`. Only
    /// a new request (its caller's hang-up, `PromptSystem.caller`) or a closing key ends it.
    /// - Parameter silently: drawn, not said: the wait a key woke, already heard, whose key alone is answered.
    public func waiting(news: [String] = [], silently: Bool = false) -> Request {
        let wording = Wording(language: language)
        var notice = NoticeSession(
            message: wording.agentWaiting, details: news, takesEnter: false, language: language, verbosity: verbosity)
        notice.opensSilently = silently
        // Esc, Ctrl-C or Ctrl-D on the wait stop the agent: in raw mode they are keys, not signals, and a wait
        // that only showed itself again left no way out. A request's own Esc only cancels that request.
        notice.closing = (wording.agentStopHint, wording.agentStopped)
        return .notice(notice)
    }

    /// The datagram for `outcome` of a request of `kind`; nil when nothing may be sent: the request was withdrawn
    /// (`callerGone`, its time ran out) or the prompt ended without the user's answer (a signal, the terminal
    /// gone), which another agent may still give.
    public static func answer(_ outcome: PromptOutcome?, kind: AskFile.Kind) -> AgentAnswer? {
        switch outcome {
        case .submitted(let secret)?:
            guard kind == .password else {
                secret.wipe()
                return kind == .notice ? .acknowledged : nil
            }
            return .password(secret)
        case .confirmed(let yes)?:
            return kind == .notice ? .acknowledged : (yes ? .yes : .no)
        case .cancelled?:
            return .cancel
        case .rejected?, .checkCouldNotRun?, .timedOut?, .terminalClosed?, .callerGone?, .speechFailed?,
            .signalled?, nil:
            return nil
        }
    }

    /// Whether `outcome` ended the request because it was withdrawn: then "Request withdrawn." is said next.
    public static func wasWithdrawn(_ outcome: PromptOutcome?) -> Bool {
        outcome == .callerGone || outcome == .timedOut
    }
}
