import OTCPromptCore
import OTCPromptFrontEnds
import OTCPromptLoop
import OTCPromptSettings
import OTCPromptSpeech
import OTCPromptTerminal

/// The agent's two waits: the spoken one ("Waiting for password requests."), which ends once it has been heard and
/// its voice let go so that the agent renews itself (`AgentRenewal`), and the quiet one of the renewed image, with
/// nothing of the voice loaded, on the line the spoken one drew.
extension AgentProgram {
    /// "Waiting for password requests." until a request comes (or a directory goes or comes back); each key
    /// meanwhile says that there is nothing to answer. With `renews`, the wait also ends once it has been heard and
    /// its voice let go (`.quiet`), its line left for the renewed image to wait on. After a request withdrawn under
    /// the user's fingers (`afterSwitch`), keys are held until the wait has been heard: an Esc meant for that request
    /// does not stop the agent.
    func waitForRequests(
        news: [String], requests: AgentRequests, renews: Bool, takesWakingKey: Bool, afterSwitch: Bool,
        on terminal: Terminal
    ) -> Asked {
        _ = VoiceRelease.take()
        let watch = requests.watch
        guard
            let relay = try? HangUpRelay(
                watching: renews ? [watch.descriptor, VoiceRelease.descriptor] : [watch.descriptor], deadline: nil,
                firesWhen: { watch.keepChanges(whereOneMatters: requests.matters) || VoiceRelease.isPending })
        else { return .ended(1) }
        // The key that woke a quiet wait is the user's answer to it (Esc stops the agent), not a leftover, and what
        // it does is all that is said: the wait was heard before.
        var request = frontEnd.waiting(news: news, silently: takesWakingKey, afterSwitch: afterSwitch)
        if takesWakingKey { request.typeAhead = .kept }
        var waiting = prompt(request, caller: relay.descriptor)
        waiting.voiceReleasedAfterSilence = Self.voiceReleasedAfterSilence
        // Decided the moment the wait ends: its line is ended at once for a request (the first thing it sees of the
        // agent), and left for the renewed image when the voice has let go.
        let released = Flag()
        waiting.keepsTerminalWhenCallerGoes = {
            released.isSet = renews && VoiceRelease.take()
            return released.isSet
        }
        let outcome = try? waiting.runSession(on: terminal).get()
        relay.stop()
        if let ended = ending(outcome, on: terminal) { return .ended(ended) }
        // The user closed the wait (`AgentFrontEnd.waiting`): the agent stops, as asked.
        if case .cancelled? = outcome { return .ended(ExitStatus.submitted) }
        return outcome == .callerGone && released.isSet ? .quiet : .answered(nil)
    }

    /// What ended a wait with nothing of the voice loaded.
    enum QuietWake {
        case request
        case key
        /// Stopped and continued: the wait's line was ended before the stop; the wait is drawn and said anew.
        case resumed
        case ended(Int32)
    }

    /// Waits with no voice and no thread until a directory has a request (or goes, or comes back), a key is typed
    /// (left for the spoken wait to read) or a signal ends the agent. The wait's line stays as it was drawn.
    func waitQuietly(requests: AgentRequests, on terminal: Terminal) -> QuietWake {
        rehearse()
        while true {
            switch terminal.awaitActivity(alsoWatching: [requests.watch.descriptor], lineEnd: TerminalText.newline) {
            case .input: return .key
            case .resumed: return .resumed
            case .otherReady:
                if requests.watch.keepChanges(whereOneMatters: requests.matters) { return .request }
            case .closed: return .ended(ExitStatus.terminalClosed)
            case .ending(let signal):
                terminal.write(TerminalText.newline)
                terminal.restore()
                guard let watcher = terminal.signalWatcher else { return .ended(ExitStatus.signalled(signal)) }
                watcher.reraise(signal)
            }
        }
    }
}

extension AgentProgram {
    /// Runs once, before an image's first quiet wait, what a request touches first, on a sample: the parsing of an
    /// ask file, the queue, the liveness rule, the request's words and its drawing. Their code and their one-time
    /// set-up (the language's phrases, type metadata) are then in memory when a request comes, instead of being
    /// faulted in between its file's arrival and its first byte on the screen. No file, no terminal, no voice; once.
    func rehearse() {
        guard !Rehearsal.done else { return }
        Rehearsal.done = true
        let sample = AskFile(
            pid: 1, socket: "/run/systemd/ask-password/sck.0", notAfter: 1, message: "Passphrase",
            id: "cryptsetup:/dev/sda2")
        guard let file = try? AskFile.parse(Array(sample.rendered().utf8)) else { return }
        var queue = AgentQueue()
        queue.arrived(.init(directory: 0, name: "ask.0"))
        _ = queue.waiting { _ in true }
        _ = queue.takeNext()
        _ = ProcessLiveness.judge(pid: file.pid, mark: file.poster)
        _ = file.hasExpired(atMicroseconds: 0)
        let request = frontEnd.request(file, from: .system, waiting: 1, nowMicroseconds: 0, news: [], afterSwitch: true)
        var session = request.session
        _ = session.start()
        var renderer = LineRenderer()
        _ = renderer.render(session.snapshot)
        _ = request.details.map { LineWrapping.wrap($0, width: 80) }
    }
}

/// Whether this image has rehearsed (`AgentProgram.rehearse`).
private enum Rehearsal {
    nonisolated(unsafe) static var done = false
}

/// What the wait's end decided, read once the session has returned.
private final class Flag {
    var isSet = false
}
