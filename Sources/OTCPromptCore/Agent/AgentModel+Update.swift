extension AgentModel {
    /// The model after `event`, and what the world must do about it, in order.
    public mutating func update(_ event: Event) -> [Effect] {
        apply(event) + advance()
    }

    /// The state `event` leaves, before anything due is done.
    private mutating func apply(_ event: Event) -> [Effect] {
        var effects: [Effect] = []
        switch event {
        case .together(let events):
            for event in events { effects += apply(event) }
        case .appeared(let id, let subject, let question, let askable, let afterAnswer):
            guard !requests.contains(where: { $0.id == id }) else { break }
            effects.append(.examine(id))
            requests.append(
                Request(
                    id: id, subject: subject, question: question, phase: askable ? .waiting : .skipped,
                    afterAnswer: afterAnswer))
            // Counted by the opening while it waits its turn; news once the opening has been said.
            if askable && open != nil && !pending.contains(where: Self.isQuestion) { newsDue = true }
        case .changed(let id, let subject, let question, let askable, let afterAnswer):
            guard let index = requests.firstIndex(where: { $0.id == id }) else { break }
            effects.append(.examine(id))
            requests[index].subject = subject
            requests[index].question = question
            requests[index].afterAnswer = afterAnswer
            if requests[index].phase != .asked { requests[index].phase = askable ? .waiting : .refused }
        case .vanished(let id):
            guard let index = requests.firstIndex(where: { $0.id == id }) else { break }
            requests[index].phase = .withdrawn
            if open == id {
                close(wipe: true)
                // The user may have been typing: keys are held until what comes next has been heard, and the keys have
                // stopped since the switch at least (those typed into the field were its own, and may not be known).
                held = held ?? []
                lastKeyAt = max(lastKeyAt, now)
                switched = true
                waitHeard = false
                if speaking?.isUsers == false { speaking = nil }
            }
        case .key(let key, let serial):
            effects += take(key, serial: serial)
        case .speechStarted(let serial):
            if question?.serial == serial { question?.began = true }
        case .speechFinished(let serial), .speechCut(let serial):
            if question?.serial == serial {
                // Heard whole, or cut by the user's own key (what they chose to hear instead).
                question?.began = true
                question?.heard = true
            }
            guard speaking?.serial == serial else { break }
            if case .finished = Self.progress(event), speaking?.kind == .waiting {
                switched = false
                waitHeard = true
            }
            speaking = nil
        case .clock(let time):
            now = max(now, time)
        case .answerSent(let id), .answerFailed(let id):
            guard let index = requests.firstIndex(where: { $0.id == id }) else { break }
            requests[index].phase = .answered
            if awaitingSend == id {
                awaitingSend = nil
                // At once, before the next request's question: the asker waits on the user's hand now.
                if case .answerSent = event, let text = requests[index].afterAnswer {
                    effects += say(.afterAnswer(id), text)
                }
            }
        }
        return effects
    }

    private enum Progress { case finished, other }
    private static func progress(_ event: Event) -> Progress {
        if case .speechFinished = event { return .finished }
        return .other
    }

    /// A key: the open field's once its question began to be heard and no hold is on; otherwise held.
    private mutating func take(_ key: Key, serial: Int) -> [Effect] {
        lastKeyAt = now
        guard let id = open, let question, question.began, held == nil else {
            if open == nil && held == nil {
                // The wait's: nothing to answer.
                return say(.reply, wording.agentNothingToAnswer)
            }
            held = (held ?? []) + [serial]
            return []
        }
        switch key {
        case .character:
            field.append(serial)
            return say(.reply, "star")
        case .readBack:
            // Only what is true now: the question again and what waits, never the news it came with.
            let question = requests.first { $0.id == id }?.question ?? ""
            return say(
                .readBack(count: waiting.count), Self.sentences([question] + (waitingLine().map { [$0] } ?? [])),
                count: waiting.count)
        case .submit:
            let keys = field
            close(wipe: false)
            if requests.first(where: { $0.id == id })?.afterAnswer != nil { awaitingSend = id }
            return [.send(id, .password(keys: keys))]
        case .escape:
            close(wipe: true)
            // The decline first: the asker has it before the word is said.
            return [.send(id, .cancel)] + say(.reply, wording.cancelled)
        }
    }

    /// What is due now: the next field opened, the hold ended, the next line said; a wake when something is due later.
    private mutating func advance() -> [Effect] {
        var effects: [Effect] = []
        if open == nil, awaitingSend == nil, let next = waiting.first,
            let index = requests.firstIndex(where: { $0.id == next.id })
        {
            requests[index].phase = .asked
            open = next.id
            field = []
            isWaiting = false
            pending.removeAll { $0 == .waiting }
            // This request's arrival is told by its question, what else waits by its opening's count.
            newsDue = false
            waitHeard = false
            opening = Self.sentences((switched ? [wording.agentWithdrawn] : []) + [next.question])
            switched = false
            serials += 1
            question = (serials, false, false)
            pending.insert(.question(next.id), at: 0)
            effects.append(.show(opening ?? ""))
            // It may cut the wait's line; the user's own reply ("cancelled") is heard first.
            if speaking?.kind == .waiting { speaking = nil }
        }
        // Heard: the next question, or the wait's line (then the user knows the request went, and a key is theirs).
        let heard = question?.heard == true || (open == nil && waitHeard)
        if let keys = held, heard, now - lastKeyAt >= quiet {
            held = nil
            effects.append(.dropHeld(keys: keys))
            if !keys.isEmpty { pending.append(.keysDropped(count: keys.count)) }
        }
        if open == nil, awaitingSend == nil, !isWaiting {
            pending.append(.waiting)
            isWaiting = true
        }
        if newsDue, open != nil, question?.heard == true, !pending.contains(.news(count: 0)) {
            if let last = lastNewsAt, now - last < Self.newsInterval {
                effects.append(.wake(at: last + Self.newsInterval))
            } else {
                newsDue = false
                pending.append(.news(count: 0))
            }
        }
        if speaking == nil { effects += sayNext() }
        if held != nil, question?.heard == true || (open == nil && waitHeard) {
            effects.append(.wake(at: max(now, lastKeyAt + quiet)))
        }
        return effects
    }

    /// The next pending line, its words (and any count) decided now.
    private mutating func sayNext() -> [Effect] {
        guard !pending.isEmpty else { return [] }
        let kind = pending.removeFirst()
        switch kind {
        case .question:
            guard let opening, let serial = question?.serial else { return sayNext() }
            // What else waits, counted now, in the same breath: after the question, never a line of its own.
            let count = waiting.count
            counted = Set(waiting.map(\.id))
            let text = count > 0 ? Self.sentences([opening, wording.agentMoreWaiting(count)]) : opening
            let utterance = Utterance(serial: serial, kind: kind, text: text, count: count)
            speaking = utterance
            return [.say(utterance)]
        case .news:
            lastNewsAt = now
            // Only when more wait than the user last heard counted: never again what was just heard.
            guard let line = waitingLine(), !Set(waiting.map(\.id)).isSubset(of: counted) else { return sayNext() }
            counted = Set(waiting.map(\.id))
            return say(.news(count: waiting.count), line, count: waiting.count)
        case .keysDropped(let count):
            return say(kind, wording.keysDropped(count))
        case .waiting:
            return say(.waiting, Self.sentences((switched ? [wording.agentWithdrawn] : []) + [wording.agentWaiting]))
        case .reply, .readBack, .afterAnswer:
            return sayNext()
        }
    }

    private mutating func say(_ kind: Kind, _ text: String, count: Int? = nil) -> [Effect] {
        serials += 1
        let utterance = Utterance(serial: serials, kind: kind, text: text, count: count)
        speaking = utterance
        return [.say(utterance), .show(text)]
    }

    static func isQuestion(_ kind: Kind) -> Bool {
        if case .question = kind { true } else { false }
    }

    /// The open field is closed: its keys wiped (withdrawn, cancelled) or sent.
    private mutating func close(wipe: Bool) {
        if wipe { wiped += field }
        field = []
        open = nil
        question = nil
        opening = nil
        pending.removeAll { if case .question = $0 { true } else { false } }
        if pending.contains(.news(count: 0)) { pending.removeAll { $0 == .news(count: 0) } }
        newsDue = false
    }
}
