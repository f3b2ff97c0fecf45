import OTCPromptCore
import OTCPromptFrontEnds
import OTCPromptHost
import OTCPromptLoop
import OTCPromptSettings
import OTCPromptSpeech
import OTCPromptTerminal

/// `--agent`: systemd's password agent on the user's terminal. Watches the request directories, asks each
/// request in turn (oldest first) through `PromptProgram` as any other caller's, answers it with one datagram,
/// and waits for the next; `--query` answers those waiting and exits.
///
/// It never wakes while idle: the wait is a notice whose caller (`HangUpRelay`) hangs up when a directory
/// changes. A request being asked ends at once, with "Request withdrawn.", when its file is removed, its process
/// ends or its time passes (the same relay, on the file's removal, a pidfd and the request's NotAfter); a request
/// arriving meanwhile waits in the queue and never takes the keys typed into another.
struct AgentProgram {
    /// The prompt the options describe; each request sets its own.
    let template: PromptProgram
    let frontEnd: AgentFrontEnd
    /// The directories to watch, each with the user its requests must belong to.
    let places: [(path: String, owner: UInt32)]
    let query: Bool
    /// Handed over by the previous image, which executed this one once its voice had gone quiet.
    let renewal: AgentRenewal?
    /// The command line, for the next renewal.
    let arguments: [String]
    /// In an initrd: a question shown as text, with no voice, is also heard as the PC speaker's tones (`BootCue`).
    var cuesAtBoot = false

    static let systemDirectory = "/run/systemd/ask-password"
    /// The wait lets its voice go this long after "Waiting for password requests." has been heard: the stream
    /// closed and the speech threads waiting with no deadline, nothing of the agent wakes until a request comes
    /// (or a key is typed), whose first sound then pays the stream's opening, as a prompt's start-up does.
    static let voiceReleasedAfterSilence: Duration = .seconds(1)
    /// A request that ends a wait this long (or the quiet wait of a renewed image) is cued by a tone (`cue`): its
    /// first words come after minutes of silence, maybe. Longer than the wait's own line takes to say.
    static let cueAfterWaiting: Duration = .seconds(5)

    /// The directories watched by default: the system's (as root), systemd 257's per-user one and otc-prompt's
    /// own, the per-user ones made (0700) when missing; or those `--agent-directory` names.
    static func places(option: String?, environment: [String: String], user: UInt32) -> [(path: String, owner: UInt32)]
    {
        if let option {
            return option.split(separator: ":").map {
                let path = String($0)
                return (path, path == systemDirectory ? 0 : user)
            }
        }
        var places: [(path: String, owner: UInt32)] = []
        if user == 0 {
            AskDirectory.make(systemDirectory, mode: 0o755)
            places.append((systemDirectory, 0))
        }
        // Root keeps a user's XDG_RUNTIME_DIR after `su` or `sudo -E`: a tree the user can rename under a root agent
        // (and whose directories it would otherwise make as root's) is not root's to watch.
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/"),
            user != 0 || (try? AskDirectory(path: runtime, owner: 0)) != nil
        {
            for path in [runtime + "/systemd/ask-password", runtime + "/otc-prompt/ask"] {
                AskDirectory.make(path, mode: 0o700)
                places.append((path, user))
            }
        }
        return places
    }

    func run(on terminal: Terminal) -> Int32 {
        // Raw across its requests and waits (`PromptPolicy.keepsRawMode`); restored however it ends.
        defer { terminal.restore() }
        let wording = Wording(language: frontEnd.language)
        /// The wait's line is on the screen, not ended: the previous image left it for this one.
        var waitLineOpen = renewal != nil
        /// A line of news, below the wait's line if it is still open.
        func tell(_ line: String) {
            if waitLineOpen { terminal.write(TerminalText.newline) }
            waitLineOpen = false
            say(on: terminal, line)
        }
        guard let requests = AgentRequests(places: places, renewal: renewal, wording: wording, tell: tell) else {
            return ExitStatus.usage
        }
        /// The system's requests answered, by process: the same asked again is a retry ("Wrong passphrase, try 2.").
        var retries = AgentRetries()
        // The harnesses wait for this trace event: the new image runs, without the voice's libraries.
        if renewal != nil { SpeechTrace.note("renewed") }
        /// The agent's decisions: which request is asked next, what its opening says first and counts, the news
        /// said while it is asked, the decline; this loop only translates (`AgentSteps`).
        let steps = AgentSteps(language: frontEnd.language)
        /// The next request ends a wait that had gone quiet (a renewed image's): it is cued (`cue`).
        var afterQuietWait = renewal != nil
        /// Whether a wait that has gone quiet renews the agent (not after a renewal failed: it would fail again).
        var renews = AgentRenewal.isPossible
        let capabilities = TerminalCapabilities(environment: template.environment)
        while true {
            let now = UInt64(clamping: MonotonicInstant.now.nanoseconds / 1000)
            if !steps.awaitsOpening {
                requests.examine(atMicroseconds: now)
                steps.requestsAre(requests.examined, at: .microseconds(now), id: \.key) {
                    Self.examined($0, by: frontEnd)
                }
            }
            requests.tellLines()
            // The wait's line ends the moment a request ends the wait: the first thing the user's screen shows of it.
            if waitLineOpen && steps.open != nil {
                terminal.write(TerminalText.newline)
                waitLineOpen = false
            }
            if let id = steps.open, let candidate = requests.examined.first(where: { $0.key == id }) {
                let origin = candidate.origin
                retries.forget { !ProcessLiveness.isRunning($0) }
                let key = AgentFrontEnd.retryKey(candidate.file, from: origin)
                // Only systemd's own requests (`SystemAsk`) are counted: theirs are the retries that do not say so,
                // and any other asker's answer held here would keep the agent from renewing itself.
                let counted = AgentFrontEnd.systemAsk(candidate.file, from: origin) != nil
                let attempt = counted ? retries.attempt(pid: candidate.file.pid, key: key) : 1
                let opening = steps.opening()
                let request = frontEnd.request(
                    candidate.file, from: origin, waiting: opening.waiting, nowMicroseconds: now,
                    news: opening.news + requests.takeNews(), attempt: attempt, afterSwitch: steps.holds,
                    disk: candidate.disk)
                let bootCue = cuesAtBoot ? AgentFrontEnd.cue(candidate.file, from: origin, attempt: attempt) : nil
                if afterQuietWait { cue(on: terminal) }
                afterQuietWait = false
                let asked = ask(request, candidate, of: requests, steps: steps, cue: bootCue, on: terminal)
                requests.forget(candidate)
                switch asked {
                case .withdrawn, .quiet:
                    // The model hears of it from the requests there (`requestsAre`): it is no longer among them.
                    break
                case .answered(.cancel?):
                    // An Esc the model did not decline (`escape`): its request was closed already, withdrawn or
                    // replaced. Nothing is sent to it.
                    steps.abandoned(id)
                case .answered(let answer?):
                    // Sent only when the model sends it, to the file it was typed for: not to a request it closed
                    // meanwhile (gone, or another file under its name), whatever the directory holds now.
                    let sends = steps.submitted(id)
                    guard sends, requests.isThere(candidate) else {
                        if case .password(let secret) = answer { secret.wipe() }
                        if sends { steps.sent(id, delivered: false) }
                        continue
                    }
                    if case .password = answer, counted { retries.answered(pid: candidate.file.pid, key: key) }
                    steps.sent(id, delivered: AskDirectory.send(answer, to: candidate.file.socket) == nil)
                case .answered(nil): steps.abandoned(id)
                case .ended(let status): return status
                }
                continue
            }
            if query { return ExitStatus.submitted }
            let news = steps.opening().news + requests.takeNews()
            var woken = false
            if waitLineOpen && news.isEmpty {
                // Nothing of the voice is loaded: nothing is said until a request or a key comes.
                switch waitQuietly(requests: requests, on: terminal) {
                case .request:
                    afterQuietWait = true
                    continue
                case .key:
                    // The wait is drawn again in place (below, on a terminal that cannot go back) and takes the key.
                    terminal.write(capabilities.isDumb ? TerminalText.newline : TerminalText.eraseLineInPlace)
                    waitLineOpen = false
                    woken = true
                case .resumed: waitLineOpen = false
                case .ended(let status): return status
                }
            } else if waitLineOpen {
                terminal.write(TerminalText.newline)
                waitLineOpen = false
            }
            let waitBegan = MonotonicInstant.now
            // Not while a process answered here may ask again: its retry would lose the count with this image.
            retries.forget { !ProcessLiveness.isRunning($0) }
            let waited = waitForRequests(
                news: news, requests: requests, renews: renews && !retries.awaitsAskers, takesWakingKey: woken,
                steps: steps, on: terminal)
            switch waited {
            case .ended(let status): return status
            case .quiet:
                // A request that came with the silence is asked first, cued; the next wait renews.
                afterQuietWait = true
                requests.examine(atMicroseconds: UInt64(clamping: MonotonicInstant.now.nanoseconds / 1000))
                if requests.examined.isEmpty && requests.news.isEmpty {
                    let failure = AgentRenewal.renew(
                        terminal: terminal, watch: requests.watch, watched: requests.watched,
                        awaited: requests.awaited, arguments: arguments)
                    // Still here: the wait goes on quietly in this image, its voice let go but its libraries kept.
                    SystemLog.warning("the password agent could not renew itself to let its voice go: \(failure)")
                    renews = false
                }
                // Its line stays as drawn: the quiet wait, or the request asked next, goes on from it.
                waitLineOpen = true
            case .answered, .withdrawn:
                if MonotonicInstant.now - waitBegan >= Self.cueAfterWaiting { afterQuietWait = true }
            }
        }
    }

    enum Asked {
        case answered(AgentAnswer?)
        case withdrawn
        /// The wait was heard and its voice let go: the agent renews itself without the voice's libraries.
        case quiet
        /// The agent ends: a signal, the terminal gone.
        case ended(Int32)
    }

    /// Asks `request`, ended early when it is withdrawn; news of the other requests is said meanwhile. `cue`: the PC
    /// speaker's, heard when the question is shown as text with no voice.
    private func ask(
        _ request: Request, _ candidate: AgentRequests.Candidate, of requests: AgentRequests, steps: AgentSteps,
        cue: BootCue?, on terminal: Terminal
    ) -> Asked {
        let deadline = candidate.file.notAfter.map {
            MonotonicInstant(nanoseconds: Int64(clamping: min($0, UInt64(Int64.max / 1000)) * 1000))
        }
        let relay: HangUpRelay
        do {
            guard
                let made = try HangUpRelay.request(path: candidate.path, process: candidate.process, deadline: deadline)
            else { return .withdrawn }
            relay = made
        } catch {
            say(on: terminal, "otc-prompt: \(error)")
            return .answered(nil)
        }
        var program = prompt(request, caller: relay.descriptor)
        program.policy.cue = cue
        // After a request withdrawn under the user's fingers, the model holds the keys until this one is heard.
        if steps.holds { program.policy.keyHold = AgentHold(steps: steps) }
        program.policy.outside = AgentOutside(requests: requests, steps: steps, frontEnd: frontEnd)
        // Esc declines at once, as the model decides: the querier has "-" before "cancelled" is said.
        let declined = Flag()
        program.policy.declines = {
            guard steps.escape(candidate.key), requests.isThere(candidate) else { return }
            AskDirectory.send(.cancel, to: candidate.file.socket)
            declined.isSet = true
        }
        let outcome = try? program.runSession(on: terminal).get()
        relay.stop()
        if declined.isSet, case .cancelled? = outcome { return .answered(nil) }
        if let ended = ending(outcome, on: terminal) { return .ended(ended) }
        if AgentFrontEnd.wasWithdrawn(outcome) { return .withdrawn }
        return .answered(AgentFrontEnd.answer(outcome, kind: candidate.file.kind))
    }

    /// A request read and checked, as the agent's model knows it: by its file (`Candidate.key`), what it is for, and
    /// what is said once its password has been sent.
    static func examined(_ candidate: AgentRequests.Candidate, by frontEnd: AgentFrontEnd) -> AgentSteps.Examined {
        AgentSteps.Examined(
            id: candidate.key, subject: frontEnd.subject(of: candidate.file, from: candidate.origin),
            afterAnswer: frontEnd.afterAnswer(candidate.file, from: candidate.origin))
    }

    /// The exit status when `outcome` ends the agent: a signal (raised again: the terminal is restored), the
    /// terminal closed, the speech options unmet.
    func ending(_ outcome: PromptOutcome?, on terminal: Terminal) -> Int32? {
        switch outcome {
        case .signalled(let signal)?:
            guard let watcher = terminal.signalWatcher else { return ExitStatus.signalled(signal) }
            watcher.reraise(signal)
        case .terminalClosed?: return ExitStatus.terminalClosed
        case .speechFailed?: return ExitStatus.usage
        case nil: return ExitStatus.usage
        default: return nil
        }
    }

    func prompt(_ request: Request, caller: Int32) -> PromptProgram {
        var program = template
        program.request = request
        program.check = nil
        program.policy.caller = [caller]
        program.policy.speculatesOnEspeak = false
        program.policy.callerIsInProcess = true
        // Raw from one request to the next: a key typed between them is never echoed (it may be a password's).
        program.policy.keepsRawMode = true
        return program
    }

    /// The terminal's tone before a request after a quiet wait: its first words come after minutes of silence,
    /// maybe. A tone, not a word: "New request." put a second before the question, and the question is the news.
    private func cue(on terminal: Terminal) {
        terminal.write(TerminalText.bell)
    }

    /// A line on the terminal and in the system log, scrubbed whole: a file's name is a querier's text.
    private func say(on terminal: Terminal, _ line: String) {
        let visible = UntrustedText.visible(line)
        terminal.writeLine(visible)
        SystemLog.warning(visible)
    }
}
