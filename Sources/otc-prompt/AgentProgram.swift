import OTCPromptCore
import OTCPromptFrontEnds
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
        let wording = Wording(language: frontEnd.language)
        /// The wait's line is on the screen, not ended: the previous image left it for this one.
        var waitLineOpen = renewal != nil
        /// A line of news, below the wait's line if it is still open.
        func tell(_ line: String) {
            if waitLineOpen { terminal.write(TerminalText.newline) }
            waitLineOpen = false
            say(on: terminal, line)
        }
        var directories: [AskDirectory] = []
        var watched: [Bool] = []
        for (index, place) in places.enumerated() {
            do {
                directories.append(try AskDirectory(path: place.path, owner: place.owner))
                watched.append(true)
            } catch {
                watched.append(false)
                // One the previous image could not watch either was said then; one it watched is news.
                if renewal?.hadWatched(index) ?? true { tell("otc-prompt: not watching \(place.path): \(error)") }
            }
        }
        guard !directories.isEmpty else {
            tell("otc-prompt: no directory of password requests to watch; see --agent-directory")
            return ExitStatus.usage
        }
        let watch: DirectoryWatch
        do {
            if let handed = renewal?.watch {
                watch = try DirectoryWatch(adopting: handed, paths: directories.map(\.path))
            } else {
                watch = try DirectoryWatch(paths: directories.map(\.path))
            }
        } catch {
            tell("otc-prompt: \(error)")
            return ExitStatus.usage
        }
        var queue = AgentQueue()
        var news: [String] = []
        /// The system's requests answered, by process: the same asked again is a retry ("Wrong passphrase, try 2.").
        var retries = AgentRetries()
        // A renewed agent's requests are in the watch it was handed: those it had seen were asked or refused.
        if renewal?.watch == nil { rescan(directories, into: &queue) }
        if renewal != nil { VoiceRelease.traceRenewal() }
        /// Whether a wait that has gone quiet renews the agent (not after a renewal failed: it would fail again).
        var renews = AgentRenewal.isPossible
        let capabilities = TerminalCapabilities(environment: template.environment)
        while true {
            take(watch.changes(), directories: directories, into: &queue)
            if let entry = queue.next {
                if waitLineOpen {
                    terminal.write(TerminalText.newline)
                    waitLineOpen = false
                }
                let directory = directories[entry.directory]
                let file: AskFile
                do { file = try directory.read(entry.name) } catch {
                    // A request answered or given up between the listing and the read is no news.
                    if case .unreadable(_, let errno) = error, errno == .noSuchFileOrDirectory {
                    } else {
                        say(on: terminal, "otc-prompt: \(entry.name) refused: \(error)")
                    }
                    queue.remove(entry)
                    continue
                }
                queue.remove(entry)
                // As systemd's agents: a request whose process is gone, or whose time has passed, is not asked.
                let now = UInt64(clamping: MonotonicInstant.now.nanoseconds / 1000)
                if let pid = file.pid, !HangUpRelay.processExists(pid) { continue }
                if file.hasExpired(atMicroseconds: now) { continue }
                if directory.owner == 0 && UserAccount.currentUID != 0 {
                    if !news.contains(wording.agentNeedsRoot) { news.append(wording.agentNeedsRoot) }
                    continue
                }
                // Only root could write in a directory of root's: any other's `Id=` is a program's claim.
                let origin: AskOrigin = directory.owner == 0 ? .system : .user
                retries.forget { !HangUpRelay.processExists($0) }
                let key = AgentFrontEnd.retryKey(file, from: origin)
                let attempt = origin == .system ? retries.attempt(pid: file.pid, key: key) : 1
                let request = frontEnd.request(
                    file, from: origin, waiting: queue.count, nowMicroseconds: now, news: news, attempt: attempt)
                news = []
                let path = directory.path + "/" + entry.name
                let cue = cuesAtBoot ? AgentFrontEnd.cue(file, from: origin, attempt: attempt) : nil
                switch ask(request, file: file, path: path, cue: cue, on: terminal) {
                case .withdrawn: news.append(wording.agentWithdrawn)
                case .quiet: break
                case .answered(let answer?):
                    if case .password = answer, origin == .system { retries.answered(pid: file.pid, key: key) }
                    if directory.contains(entry.name) { AskDirectory.send(answer, to: file.socket) }
                case .answered(nil): break
                case .ended(let status): return status
                }
                continue
            }
            if query { return ExitStatus.submitted }
            var woken = false
            if waitLineOpen {
                // Nothing of the voice is loaded: nothing is said until a request or a key comes.
                switch waitQuietly(watch: watch, directories: directories, on: terminal) {
                case .request: continue
                case .key:
                    // The wait is drawn again in place (below, on a terminal that cannot go back) and takes the key.
                    terminal.write(capabilities.isDumb ? TerminalText.newline : TerminalText.eraseLineInPlace)
                    waitLineOpen = false
                    woken = true
                case .resumed: waitLineOpen = false
                case .ended(let status): return status
                }
            }
            // Not while a process answered here may ask again: its retry would lose the count with this image.
            retries.forget { !HangUpRelay.processExists($0) }
            switch waitForRequests(
                news: news, watch: watch, directories: directories, renews: renews && !retries.awaitsAskers,
                takesWakingKey: woken, on: terminal)
            {
            case .ended(let status): return status
            case .quiet:
                // A request that came with the silence is asked first; the next wait renews.
                take(watch.changes(), directories: directories, into: &queue)
                if queue.next == nil {
                    let failure = AgentRenewal.renew(
                        terminal: terminal, watch: watch, watched: watched, arguments: arguments)
                    // Still here: the wait goes on quietly in this image, its voice let go but its libraries kept.
                    SystemLog.warning("the password agent could not renew itself to let its voice go: \(failure)")
                    renews = false
                    waitLineOpen = true
                } else {
                    terminal.write(TerminalText.newline)
                }
            case .answered, .withdrawn: break
            }
            news = []
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

    /// Asks `request`, ended early when the request is withdrawn.
    private func ask(_ request: Request, file: AskFile, path: String, cue: BootCue?, on terminal: Terminal) -> Asked {
        let deadline = file.notAfter.map {
            MonotonicInstant(nanoseconds: Int64(clamping: min($0, UInt64(Int64.max / 1000)) * 1000))
        }
        let relay: HangUpRelay
        do {
            guard let made = try HangUpRelay.request(path: path, pid: file.pid, deadline: deadline) else {
                return .withdrawn
            }
            relay = made
        } catch {
            say(on: terminal, "otc-prompt: \(error)")
            return .answered(nil)
        }
        var program = prompt(request, caller: relay.descriptor)
        program.cue = cue
        let outcome = try? program.runSession(on: terminal).get()
        relay.stop()
        if let ended = ending(outcome, on: terminal) { return .ended(ended) }
        if AgentFrontEnd.wasWithdrawn(outcome) { return .withdrawn }
        return .answered(AgentFrontEnd.answer(outcome, kind: file.kind))
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
        program.caller = [caller]
        program.speculatesOnEspeak = false
        program.callerIsInProcess = true
        return program
    }

    /// A line on the terminal and in the system log, scrubbed whole: a file's name is a querier's text.
    private func say(on terminal: Terminal, _ line: String) {
        let visible = UntrustedText.visible(line)
        terminal.writeLine(visible)
        SystemLog.warning(visible)
    }

    private func rescan(_ directories: [AskDirectory], into queue: inout AgentQueue) {
        queue.rescan(
            directories.enumerated().flatMap { index, directory in
                directory.names().map { AgentQueue.Entry(directory: index, name: $0) }
            })
    }

    private func take(_ changes: [DirectoryWatch.Change], directories: [AskDirectory], into queue: inout AgentQueue) {
        for change in changes {
            switch change {
            case .added(let directory, let name): queue.add(.init(directory: directory, name: name))
            case .removed(let directory, let name): queue.remove(.init(directory: directory, name: name))
            case .lost: rescan(directories, into: &queue)
            }
        }
        // Requests turned away by a full queue are read again once there is room.
        if queue.overflowed && queue.count < AgentQueue.capacity / 2 { rescan(directories, into: &queue) }
    }
}
