@testable import OTCPromptCore

/// The touch watcher's rules, checked against the world's own truth of which signals say the key waits.
struct TouchInvariants {
    struct Truth {
        var openFiles = 0
        var detector: Set<TouchDetectorStream.Kind> = []
        var isWaiting: Bool { openFiles > 0 || !detector.isEmpty }
    }

    let saysRelease: Bool
    var truth = Truth()
    /// The wait on now, or the last one: when it began, when it ended, whether it was cued and its "done" said.
    private var wait: (began: Int, ended: Int?, cues: Int, released: Int)?
    private var wasWaiting = false
    /// The cue's deadline after a wait begins.
    static let deadline = 1000
    private static let window = 500

    init(saysRelease: Bool) { self.saysRelease = saysRelease }

    /// The effects of one event, after which the truth is `truth`, at `time` in milliseconds.
    mutating func check(_ effects: [TouchWatchModel.Effect], at time: Int) -> String? {
        let waiting = truth.isWaiting
        defer { wasWaiting = waiting }
        var effects = effects
        if waiting && !wasWaiting {
            if let last = wait, let ended = last.ended, time - ended < Self.window {
                wait?.ended = nil
            } else {
                if let failure = closeWait(before: time, effects: effects) { return failure }
                if effects.first == .released { effects.removeFirst() }
                wait = (time, nil, 0, 0)
            }
        } else if !waiting && wasWaiting {
            wait?.ended = time
        }
        for effect in effects {
            switch effect {
            case .cue:
                guard waiting else { return "a cue at \(time) ms while no signal says the key waits" }
                guard let current = wait, current.ended == nil else { return "a cue at \(time) ms outside a wait" }
                guard time - current.began <= Self.deadline else {
                    return "the cue at \(time) ms came more than \(Self.deadline) ms after the wait began"
                }
                wait?.cues += 1
                guard wait!.cues == 1 else {
                    return "a second cue at \(time) ms for the wait begun at \(current.began)"
                }
            case .released:
                guard saysRelease else { return "\"done\" at \(time) ms, which the user did not ask for" }
                guard let current = wait else { return "\"done\" at \(time) ms with no wait before it" }
                if current.ended == nil { return "\"done\" at \(time) ms during a wait" }
                if time - current.ended! < Self.window { return "\"done\" at \(time) ms, within the wait's window" }
                wait?.released += 1
            case .wake(let at):
                guard saysRelease else { return "a wake-up asked for at \(time) ms, with no \"done\" to say" }
                _ = at
            }
        }
        return nil
    }

    /// The last wait, before a new one begins at `time`: cued once, and its "done" said when asked for (the new
    /// wait's effects may carry it, ahead of their cue).
    private mutating func closeWait(before time: Int, effects: [TouchWatchModel.Effect]) -> String? {
        guard let last = wait else { return nil }
        if last.cues != 1 { return "the wait begun at \(last.began) ms had \(last.cues) cues" }
        let released = last.released + (effects.first == .released ? 1 : 0)
        if saysRelease && released != 1 {
            return "the wait begun at \(last.began) ms was ended with \(released) \"done\""
        }
        return nil
    }

    /// Long after the last event: every wait was cued once and, when asked for, its "done" said once.
    mutating func finish(at time: Int) -> String? {
        guard let last = wait else { return nil }
        if truth.isWaiting { return nil }
        if last.cues != 1 { return "the wait begun at \(last.began) ms had \(last.cues) cues" }
        if saysRelease && last.released != 1 {
            return "the last wait, begun at \(last.began) ms, ended with \(last.released) \"done\""
        }
        return nil
    }
}
