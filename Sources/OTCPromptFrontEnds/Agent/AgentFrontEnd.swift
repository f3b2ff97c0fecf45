import OTCPromptCore
import OTCPromptLoop

/// `--agent`: systemd's password agents' protocol (`AskFile`), each request asked as any other caller's, its
/// outcome answered as one datagram (`AgentAnswer`). The watched directories, the files and the socket stay in the
/// program (OTCPromptProgram) and `OTCPromptHost`.
public struct AgentFrontEnd: Sendable {
    public let language: Language
    public let verbosity: Verbosity
    /// A request of the user's own programs that asks for visible text (`Echo=1`) is shown and spoken as it asks
    /// (`--agent-echo-user-requests`); otherwise it is masked.
    public let echoesUserRequests: Bool

    public init(language: Language, verbosity: Verbosity, echoesUserRequests: Bool = false) {
        self.language = language
        self.verbosity = verbosity
        self.echoesUserRequests = echoesUserRequests
    }

    /// The request `file` makes at `now` (CLOCK_MONOTONIC µs), found in a directory of `origin`, with `waiting` more
    /// behind it (counted the moment it is asked) and `news` (a request withdrawn) said first. After a request that
    /// ended under the user's fingers (`afterSwitch`), its keys are held until the user has heard the change.
    ///
    /// The message is the label (scrubbed: a querier's text is outside input), said first; "disk sda2" from `Id=`
    /// and how many more wait follow it. `Echo=0` is a masked secret, `Echo=1` visible text; the field's time limit
    /// is the querier's. Keys typed before it appeared, or within the grace of a confirmation, are no answer: it may
    /// appear while the user types something else. A request part of which was left out says so.
    ///
    /// From the user's own directory (`AskOrigin.user`) any program of theirs could have written it, claiming
    /// anything, so what it says is said as its own (`Wording.agentFromUser`): its question begins "A program of yours
    /// asks:", its other lines are one line after "Not from the system: a program of yours wrote:" (a line break
    /// cannot make one of them stand alone as the system's "For disk sda2."), and its `Id=` is a claim said with the
    /// news, before the question. Whatever order the opening takes, the first words of it are such a marking. Its
    /// `Echo=1` is masked unless the user chose otherwise (`echoesUserRequests`): a program claiming a passphrase is
    /// not secret would have it spoken aloud.
    ///
    /// One of systemd's own requests (`SystemAsk`) is said in the user's words instead ("Passphrase for disk root",
    /// its disk named in the label), opened on a retry (`attempt` above 1) by the news of it: "Wrong passphrase, try 2."
    /// - Parameters:
    ///   - afterSwitch: another request ended while the user may have been typing: keys are held until the
    ///     opening's first sentence has been heard (`TypeAheadRule.heldUntilHeard`).
    ///   - disk: the disk a system request unlocks when its words name none (a FIDO2 PIN's, read from its asker:
    ///     `SystemAsk.cryptsetupVolume`).
    public func request(
        _ file: AskFile, from origin: AskOrigin, waiting: Int, nowMicroseconds now: UInt64, news: [String] = [],
        attempt: Int = 1, afterSwitch: Bool = false, disk: String? = nil
    ) -> Request {
        let wording = Wording(language: language)
        let lines = file.message.map(UntrustedText.visibleLines)?.filter { !$0.isEmpty } ?? []
        let timeLimit = file.timeLeft(atMicroseconds: now)
        var asked = Self.systemAsk(file, from: origin)
        if asked?.disk == nil, let disk { asked?.disk = disk }
        // Said first, before the question: what happened, and that a program of the user's, not the system, asks.
        let saidOnce = news.count
        var news = news
        var details: [String] = []
        if asked == nil, let purpose = AskPurpose(id: file.id) {
            let said = wording.agentPurpose(purpose, from: origin)
            if origin == .system { details.append(said) } else { news.append(said) }
        }
        let question: String
        switch origin {
        case .system:
            if let asked {
                question = wording.systemAskLabel(asked)
                details = wording.systemAskDetails(asked) + details
                news += Self.retryNews(asked, attempt: attempt, wording: wording) ?? []
            } else {
                question = lines.last ?? wording.agentDefaultLabel
                details = lines.dropLast() + details
            }
        case .user:
            if lines.count > 1 { news.append(wording.agentUserWrote(lines.dropLast().joined(separator: " "))) }
            question = wording.agentFromUser(lines.last ?? wording.agentDefaultLabel, kind: file.kind)
        }
        if waiting > 0 { details.append(wording.agentMoreWaiting(waiting)) }
        if file.leftSomethingOut { details.append(wording.agentLeftOut) }
        let labels = ConfirmLabels(
            yes: file.okLabel.map(UntrustedText.visible), no: file.notOKLabel.map(UntrustedText.visible),
            cancel: file.cancelLabel.map(UntrustedText.visible))
        var request: Request
        switch file.kind {
        case .password:
            let masked = !file.echo || (origin == .user && !echoesUserRequests)
            var configuration = PromptConfiguration.freeText(
                label: question, mask: masked, language: language, verbosity: verbosity, timeLimit: timeLimit)
            configuration.details = details
            // What happened before it (a request withdrawn) is news once: a readback says what is true now.
            configuration.newsSaidOnce = saidOnce
            request = Request(.field(configuration), typeAhead: .discarded(grace: ConfirmSession.grace))
        case .question:
            request = .question(
                ConfirmSession(
                    question: question, details: details, labels: labels, language: language, verbosity: verbosity,
                    timeLimit: timeLimit))
        case .notice:
            request = .notice(
                NoticeSession(
                    message: question, details: details, takesEnter: true, language: language, verbosity: verbosity,
                    timeLimit: timeLimit))
        }
        request = request.withNews(news)
        if afterSwitch { request.typeAhead = .heldUntilHeard(quiet: TypeAheadRule.switchQuiet) }
        return request
    }

    /// What a request is for, in a list or news ("disk sda2", or its question), its text scrubbed.
    public func subject(of file: AskFile, from origin: AskOrigin) -> String {
        var question = Substring(file.message.map(UntrustedText.visibleLines)?.last { !$0.isEmpty } ?? "")
        // In a list its colon would run into the comma: "2 more waiting: Passphrase for beta, …", never "beta:,".
        while let last = question.last, last == ":" || last == " " { question = question.dropLast() }
        return Wording(language: language).agentSubject(
            AskPurpose(id: file.id), from: origin,
            question: question.isEmpty ? Wording(language: language).agentDefaultLabel : String(question))
    }

    /// What the agent shows and says while nothing is asked: "Waiting for password requests.", after `news`. Only
    /// a new request (its caller's hang-up, `PromptSystem.caller`) or a closing key ends it.
    /// - Parameters:
    ///   - silently: drawn, not said: the wait a key woke, already heard, whose key alone is answered.
    ///   - afterSwitch: a request ended under the user's fingers: keys are held until they have heard the wait (an
    ///     Esc meant for that request does not stop the agent).
    public func waiting(news: [String] = [], silently: Bool = false, afterSwitch: Bool = false) -> Request {
        let wording = Wording(language: language)
        var notice = NoticeSession(
            message: wording.agentWaiting, takesEnter: false, language: language, verbosity: verbosity)
        notice.news = news
        notice.opensSilently = silently
        // Esc, Ctrl-C or Ctrl-D on the wait stop the agent: in raw mode they are keys, not signals, and a wait
        // that only showed itself again left no way out. A request's own Esc only cancels that request.
        notice.closing = (wording.agentStopHint, wording.agentStopped)
        // Each key says what it did: there is nothing to answer.
        notice.reply = wording.agentNothingToAnswer + " " + wording.agentStopHint
        var request = Request.notice(notice)
        if afterSwitch { request.typeAhead = .heldUntilHeard(quiet: TypeAheadRule.switchQuiet) }
        return request
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
