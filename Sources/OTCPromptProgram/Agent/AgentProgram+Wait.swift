import OTCPromptCore
import OTCPromptFrontEnds
import OTCPromptHost
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
    /// the user's fingers, the model (`steps`) holds the keys until the wait has been heard: an Esc meant for that
    /// request does not stop the agent, and a request that ends the wait first meets the hold until it is heard.
    func waitForRequests(
        news: [String], requests: AgentRequests, renews: Bool, takesWakingKey: Bool, steps: AgentSteps,
        on terminal: Terminal
    ) -> Asked {
        // The wait's voice posts here each time it lets its device go: the wait then ends, for the agent to renew.
        let voiceLetGo = renews ? try? NoticePipe() : nil
        let watch = requests.watch
        // Without the relay the wait cannot end on a request: the agent ends as when its watch cannot be made.
        guard
            let relay = try? HangUpRelay(
                watching: [watch.descriptor] + (voiceLetGo.map { [$0.descriptor] } ?? []), deadline: nil,
                firesWhen: { watch.keepChanges(whereOneMatters: requests.matters) || voiceLetGo?.isPending == true })
        else { return .ended(ExitStatus.usage) }
        // The key that woke a quiet wait is the user's answer to it (Esc stops the agent), not a leftover, and what
        // it does is all that is said: the wait was heard before.
        var request = frontEnd.waiting(news: news, silently: takesWakingKey, afterSwitch: steps.holds)
        if takesWakingKey { request.typeAhead = .kept }
        var waiting = prompt(request, caller: relay.descriptor)
        waiting.policy.voiceReleasedAfterSilence = DeviceRelease(after: Self.voiceReleasedAfterSilence) {
            voiceLetGo?.post()
        }
        // Decided the moment the wait ends: its line is ended at once for a request (the first thing it sees of the
        // agent), and left for the renewed image when the voice has let go.
        let released = Flag()
        waiting.policy.keepsTerminalWhenCallerGoes = {
            released.isSet = voiceLetGo?.take() ?? false
            return released.isSet
        }
        if steps.holds { waiting.policy.keyHold = AgentHold(steps: steps) }
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
        rehearse(requests)
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
    /// Runs once, before an image's first quiet wait, what a request's arrival touches before its first byte on the
    /// screen, on a sample: the watch's records, the queue, the request's file and its process. In a fresh image the
    /// first run of each pays for type metadata, conformance look-ups and the pages of its code, between the file's
    /// arrival and the wait's line ended; paid here, before the wait, it is not. Nothing is read from outside, nothing
    /// is written, and what holds memory (the language's phrases, a session) is left for the request itself.
    func rehearse(_ requests: AgentRequests) {
        guard !Rehearsal.done else { return }
        Rehearsal.done = true
        requests.rehearse()
        _ = TerminalText.newline
    }
}

/// Whether this image has rehearsed (`AgentProgram.rehearse`).
private enum Rehearsal {
    nonisolated(unsafe) static var done = false
}

/// What the wait's end decided, read once the session has returned.
final class Flag {
    var isSet = false
}
