import OTCPromptCore

/// What must hold in every interleaving `AgentWorld` plays, judged from the world's own record (what it posted,
/// withdrew, typed and heard), never from the model's state; `failure` names the first that broke.
struct AgentInvariants {
    var failure: String?
    /// What happened, in order: the events given and the effects they had, made text only for a failure.
    enum Entry {
        case event(Duration, AgentModel.Event)
        case effect(AgentModel.Effect)

        var line: String {
            switch self {
            case .event(let time, let event): "\(time) \(event)"
            case .effect(let effect): "  -> \(effect)"
            }
        }
    }
    var log: [Entry] = []

    private var askable: Set<String> = []
    private var gone: Set<String> = []
    private var asked: Set<String> = []
    private var answered: Set<String> = []
    private var examined: [String: Int] = [:]
    /// When each request's question began to be heard.
    private var questionBegan: [String: Duration] = [:]
    /// Each utterance given to the voice, by serial, until it ended.
    private var inFlight: [Int: AgentModel.Utterance] = [:]
    /// What the user types for: the request whose question they last heard whole, or began to hear when they were
    /// typing for nothing (at first, or after their own Enter or Esc).
    private var believed: String?
    private var keys: [Int: (time: Duration, for: String?, key: AgentModel.Key)] = [:]
    /// Where each key went: sent in an answer, or dropped and counted.
    private var delivered: [Int: String] = [:]
    private var lastNews: Duration?
    /// How many keys each drop dropped, until its count is said.
    private var droppedToSay: [Int] = []

    /// The requests that have something to say once their password has been sent, and those owed it now.
    private var saysAfterAnswer: Set<String> = []
    private var owedAfterAnswer: Set<String> = []
    private var sendKnown: Set<String> = []

    mutating func posted(_ id: String, askable isAskable: Bool, saysAfterAnswer says: Bool = false) {
        if isAskable { askable.insert(id) }
        if says { saysAfterAnswer.insert(id) }
    }

    /// The world has sent `id`'s answer: what is said after a password is said at once, in that event's effects.
    mutating func sent(_ id: String) { sendKnown.insert(id) }
    mutating func sentAndTold(_ id: String) {
        if owedAfterAnswer.contains(id) { fail("\(id)'s password was sent, and what follows it was not said at once") }
    }
    mutating func withdrawn(_ id: String) { gone.insert(id) }

    private var lastPressed = 0
    /// The last question heard whole.
    private var lastHeard: String?

    mutating func pressed(_ key: AgentModel.Key, serial: Int, at time: Duration) {
        keys[serial] = (time, believed, key)
        lastPressed = serial
        // Enter or Esc: the user is done with it, and types next for whatever is asked next.
        if key == .submit || key == .escape { believed = nil }
    }

    mutating func started(_ serial: Int, at time: Duration) {
        guard case .question(let id)? = inFlight[serial]?.kind else { return }
        if questionBegan[id] == nil { questionBegan[id] = time }
        // Typing for nothing yet, the user types for what they begin to hear; typing for another, they go on
        // until they have heard this one.
        if believed == nil { believed = id }
    }

    mutating func ended(_ serial: Int, cut: Bool) {
        // The wait heard whole: the user knows nothing is asked, and types next for what they hear asked next.
        if inFlight[serial]?.kind == .waiting && !cut { believed = nil }
        if case .question(let id)? = inFlight[serial]?.kind, questionBegan[id] != nil, !answered.contains(id),
            !gone.contains(id)
        {
            believed = id
            lastHeard = id
        }
        inFlight[serial] = nil
    }

    /// The requests there and not yet asked: the truth a count must say.
    private var truth: Int { askable.subtracting(gone).subtracting(asked).subtracting(answered).count }

    mutating func check(_ effects: [AgentModel.Effect], model: AgentModel, at now: Duration) {
        for (index, effect) in effects.enumerated() {
            switch effect {
            case .examine(let id):
                examined[id, default: 0] += 1
                if examined[id]! > 1 { fail("\(id) was examined \(examined[id]!) times with no change") }
            case .send(let id, let answer):
                answered.insert(id)
                guard case .password(let sent) = answer else { continue }
                if saysAfterAnswer.contains(id) { owedAfterAnswer.insert(id) }
                for key in sent {
                    guard let typed = keys[key] else { continue }
                    guard let began = questionBegan[id], typed.time >= began else {
                        fail(
                            "key \(key) typed at \(typed.time) reached \(id), whose question began at \(questionBegan[id].map { "\($0)" } ?? "never")"
                        )
                        return
                    }
                    if typed.for != id { fail("key \(key), typed for \(typed.for ?? "nothing"), reached \(id)") }
                    deliver(key, to: "sent to \(id)")
                }
            case .dropHeld(let dropped):
                for key in dropped { deliver(key, to: "dropped") }
                if !dropped.isEmpty { droppedToSay.append(dropped.count) }
            case .say(let utterance):
                say(utterance, in: effects, at: index, now: now)
            case .show, .wake: break
            }
        }
    }

    private mutating func say(
        _ utterance: AgentModel.Utterance, in effects: [AgentModel.Effect], at index: Int, now: Duration
    ) {
        // The question being heard is heard whole: nothing but the user's own replies may cut it.
        for case (let serial, let other) in inFlight {
            guard case .question(let id) = other.kind, !gone.contains(id), !answered.contains(id) else { continue }
            if !utterance.isUsers {
                fail("\"\(utterance.text)\" said while \(id)'s question (\(serial)) was still being heard")
            }
        }
        inFlight[utterance.serial] = utterance
        switch utterance.kind {
        case .question(let id):
            asked.insert(id)
            // What else waits, said in the opening's breath, is counted as it is said.
            if utterance.count != truth || (truth > 0) != utterance.text.contains("\(truth) more waiting") {
                fail("opening \"\(utterance.text)\" said with \(truth) waiting")
            }
        case .news(let count):
            if count != truth { fail("\"\(utterance.text)\" said with \(truth) waiting") }
            if !utterance.text.hasPrefix("\(count) more waiting") { fail("news \"\(utterance.text)\" is not merged") }
            if let lastNews, now - lastNews < AgentModel.newsInterval {
                fail("news \"\(utterance.text)\" \(now - lastNews) after the last: a line per request")
            }
            lastNews = now
        case .readBack(let count):
            if count != truth { fail("readback \"\(utterance.text)\" said with \(truth) waiting") }
            for stale in ["withdrawn", "New request", ":.", ".."] where utterance.text.contains(stale) {
                fail("readback \"\(utterance.text)\" says \"\(stale)\"")
            }
        case .keysDropped(let count):
            guard !droppedToSay.isEmpty else { return fail("\"\(utterance.text)\" said with no keys dropped") }
            let dropped = droppedToSay.removeFirst()
            // Told their keys went, the user types next for what they last heard asked.
            if let lastHeard, !answered.contains(lastHeard), !gone.contains(lastHeard) { believed = lastHeard }
            if count != dropped || !utterance.text.hasPrefix("\(dropped) ") {
                fail("\(dropped) keys dropped, said \"\(utterance.text)\"")
            }
        case .afterAnswer(let id):
            if !owedAfterAnswer.contains(id) { fail("\"\(utterance.text)\" said with no password sent to \(id)") }
            if !sendKnown.contains(id) { fail("\"\(utterance.text)\" said before \(id)'s answer was sent") }
            owedAfterAnswer.remove(id)
        case .reply where utterance.text == "No request to answer.":
            deliver(lastPressed, to: "answered by the wait")
        case .reply where utterance.text == "cancelled":
            let sentFirst = effects[..<index].contains { if case .send(_, .cancel) = $0 { true } else { false } }
            if !sentFirst { fail("\"cancelled\" said before the decline was sent") }
        default: break
        }
    }

    private mutating func deliver(_ key: Int, to place: String) {
        if let before = delivered[key] { fail("key \(key) \(before), then \(place)") }
        delivered[key] = place
    }

    /// At the end: every character typed went one way (sent, dropped, wiped with its field, or still held/typed).
    mutating func finish(_ model: AgentModel) -> String? {
        let accounted = Set(delivered.keys).union(model.wiped).union(model.field).union(model.held ?? [])
        for (serial, key) in keys where key.key == .character && !accounted.contains(serial) {
            fail("key \(serial) typed at \(key.time) went nowhere and was never counted")
        }
        return failure
    }

    private mutating func fail(_ message: String) {
        if failure == nil { failure = message }
    }
}
