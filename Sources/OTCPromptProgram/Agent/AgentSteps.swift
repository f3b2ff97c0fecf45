import OTCPromptCore

/// The password agent's loop's translation to and from `AgentModel`: what the world did (the requests there, a
/// prompt opened and its opening heard, Esc, an answer sent, a request gone) becomes the model's events, and what
/// the model decides (which request is asked next, what its opening says first and how many it counts, the news
/// said while it is asked, the readback's count, the decline) is handed back for the loop to do. Nothing here
/// touches the OS: the loop reads the directories, runs the prompt and sends the answers, and a test drives this
/// with a scripted world.
final class AgentSteps {
    /// A request as the loop found it, read and checked.
    struct Examined: Equatable {
        var id: String
        /// What it is for, in a list ("disk sda2").
        var subject: String
        /// What is said once its password has been sent ("Touch your security key.").
        var afterAnswer: String?
    }

    /// What the loop opens next, decided by the model: a request's field or the wait.
    struct Opening: Equatable {
        /// The request asked; nil for the wait.
        var id: String?
        /// Said first, before the question: a request withdrawn, what the last answer asks of the user.
        var news: [String]
        /// How many wait besides it, said in the opening's breath.
        var waiting: Int
    }

    private(set) var model: AgentModel
    private let wording: Wording
    /// Lines the model said between prompts (what the last answer asks of the user), said first by what opens next.
    private var carried: [String] = []
    /// The news lines due, for the prompt to say.
    private var due: [String] = []
    /// The open request's question, when the model has given it to the voice.
    private var questionSaid: AgentModel.Utterance?
    /// The serial of the question the loop opened last (`opening`): what a prompt says it heard is that question,
    /// never the next one the model has chosen while a field outlives its request (its relay not yet fired).
    private var questionShown: Int?
    /// The wait's line as the model said it, until it has been heard.
    private var waitSaid: AgentModel.Utterance?
    /// The wait's line has been opened (`opening`): a prompt's "heard" may end the hold in it.
    private var waitShown = false
    /// What the wait's line says first, until a wait has said it.
    private var waitNews: [String] = []
    /// The answers the model sent (declines and passwords), by its name of the request, for the loop to deliver:
    /// it sends nothing the model did not.
    private var sends: [(id: AgentModel.RequestID, isPassword: Bool)] = []
    /// How many keys the model's hold dropped when it ended, until the prompt says it.
    private var dropped: Int?
    /// The keys given to the model while it held them, numbered.
    private var keySerial = 0
    /// The model's name of each request there (by the id the loop gives it: its path and its file's identity), one
    /// per appearance: a file written again under the same name, once the first is gone, is a new request.
    private var live: [String: AgentModel.RequestID] = [:]
    private var appearances = 0

    init(language: Language) {
        model = AgentModel(language: language)
        wording = Wording(language: language)
    }

    /// The requests there at `now`, read and checked, oldest first: those not known yet appear (`describe`d, once),
    /// those known and no longer there vanish (the open one too: it was withdrawn).
    func requestsAre<Request>(
        _ present: [Request], at now: Duration, id: (Request) -> String, describe: (Request) -> Examined
    ) {
        let paths = Set(present.map(id))
        let gone = live.filter { !paths.contains($0.key) }
        for path in gone.keys { live[path] = nil }
        let arrived = present.filter { live[id($0)] == nil }.map(describe).map { request in
            appearances += 1
            let name = "\(appearances)#\(request.id)"
            live[request.id] = name
            return AgentModel.Event.appeared(
                name, subject: request.subject, question: request.subject, askable: true,
                afterAnswer: request.afterAnswer)
        }
        guard !gone.isEmpty || !arrived.isEmpty else { return give(.clock(now)) }
        // Found together: nothing is decided until all are known (the next request asked counting the others).
        let wasOpen = model.open
        give(.together([.clock(now)] + gone.values.sorted().map { .vanished($0) } + arrived))
        if let wasOpen, gone.values.contains(wasOpen) { endQuestion() }
    }

    /// The request whose field is open (its id, as the loop gave it), or nil while the agent waits.
    var open: String? { model.open.map(Self.path) }

    /// The loop's id a model's name of a request stands for.
    private static func path(_ name: AgentModel.RequestID) -> String {
        String(name.drop { $0 != "#" }.dropFirst())
    }

    /// The model has opened a request's field whose question the world has not begun to say: the loop opens it now,
    /// before it looks at the directories again (what it finds then is news, counted after the question).
    var awaitsOpening: Bool { model.open != nil && model.question?.began == false }

    /// What opens now: the open request's field (its question begins to be heard), or the wait.
    func opening() -> Opening {
        defer { carried = [] }
        guard let id = open else {
            waitShown = waitSaid != nil
            defer { waitNews = [] }
            return Opening(id: nil, news: carried + waitNews, waiting: 0)
        }
        guard let question = questionSaid else { return Opening(id: id, news: carried, waiting: 0) }
        questionShown = question.serial
        give(.speechStarted(question.serial))
        let withdrawn = model.opening?.hasPrefix(AgentModel.sentence(wording.agentWithdrawn)) ?? false
        return Opening(
            id: id, news: carried + (withdrawn ? [wording.agentWithdrawn] : []), waiting: question.count ?? 0)
    }

    /// News for the prompt now: once the question has been heard (`openingHeard`), what waits besides it, as the
    /// model decided when to say it and counted it.
    func news(openingHeard: Bool, at now: Duration) -> [String] {
        give(.clock(now))
        if openingHeard, let question = questionSaid, questionShown == question.serial, model.question?.heard == false {
            give(.speechFinished(question.serial))
        }
        defer { due = [] }
        return due
    }

    /// Whether news is due but not said yet (the question not heard, or the last line too recent).
    var keepsNews: Bool { model.newsDue }

    /// What waits now, for a readback: only what is true now.
    func waitingLine() -> String? { model.waitingLine() }

    /// Whether the model holds the keys (a request was withdrawn under the user's fingers, and what came next has
    /// not been heard yet, or the keys have not stopped): the next prompt, field or wait, holds them
    /// (`TypeAheadRule.heldUntilHeard`), through `AgentHold`.
    var holds: Bool { model.held != nil }

    /// `count` keys pressed at `now` while the model holds them: held, and counted when the hold ends.
    func held(_ count: Int, at now: Duration) {
        give(.clock(now))
        for _ in 0..<count {
            keySerial += 1
            give(.key(.character, serial: keySerial))
        }
    }

    /// At `now`, what the prompt holding the keys has said heard or not (`heard`): nil while the model holds on; once
    /// the hold ends, how many keys it dropped.
    func release(heard: Bool, at now: Duration) -> Int? {
        give(.clock(now))
        if heard {
            if let question = questionSaid, questionShown == question.serial, model.question?.serial == question.serial,
                model.question?.heard == false
            {
                give(.speechFinished(question.serial))
            } else if model.open == nil, waitShown {
                waitHeard()
            }
        }
        defer { dropped = nil }
        return dropped
    }

    /// Whether the hold has ended with a count not yet taken by the prompt.
    var hasDropped: Bool { dropped != nil }

    /// When the hold may end, on the agent's clock: once the keys have stopped for the model's quiet.
    var holdMayEnd: Duration? { model.held != nil ? model.lastKeyAt + model.quiet : nil }

    /// Esc in `path`'s field: whether the model sends its decline, at once, before "cancelled" is said. Not when the
    /// model has closed that request already (withdrawn, another file under its name): the user's refusal needs no
    /// answer then, and is no key held for what comes next (never counted as one dropped).
    func escape(_ path: String) -> Bool {
        answer(path, with: .escape) { !$0 }
    }

    /// Enter in `path`'s field: whether the model sends the answer. Not when it has closed that request already
    /// (Esc, withdrawn, another file under its name): then nothing may be sent, whatever the directory holds now.
    func submitted(_ path: String) -> Bool {
        answer(path, with: .submit) { $0 }
    }

    /// `key` given to the model for `path`'s open field; whether it sent that request an answer `kind` accepts.
    private func answer(_ path: String, with key: AgentModel.Key, kind: (_ isPassword: Bool) -> Bool) -> Bool {
        guard let id = live[path], model.open == id else { return false }
        reachedField()
        give(.key(key, serial: 0))
        endQuestion()
        defer { sends = [] }
        return sends.contains { $0.id == id && kind($0.isPassword) }
    }

    /// The open request ended with no answer (its prompt could not run, or ended without the user's answer): it is
    /// not asked again, as one withdrawn.
    func abandoned(_ path: String) {
        guard let id = live.removeValue(forKey: path) else { return }
        give(.vanished(id))
        endQuestion()
    }

    /// The prompt's field took a key: its question was heard, or cut by the user's own key.
    private func reachedField() {
        guard let question = questionSaid, model.question?.serial == question.serial, model.question?.heard == false
        else { return }
        give(.speechCut(question.serial))
    }

    /// The question's field closed: what it said is over for the voice, whether heard or not, and news not yet said
    /// in it goes with it (the next opening counts what waits).
    private func endQuestion() {
        due = []
        guard let question = questionSaid, model.open == nil || model.question?.serial != question.serial else {
            return
        }
        questionSaid = nil
        give(.speechCut(question.serial))
    }

    /// The answer to the request at `path` was sent, or could not be.
    func sent(_ path: String, delivered: Bool) {
        guard let id = live[path] else { return }
        give(delivered ? .answerSent(id) : .answerFailed(id))
    }

    /// The wait's line was heard whole.
    func waitHeard() {
        guard let wait = waitSaid else { return }
        waitSaid = nil
        give(.speechFinished(wait.serial))
    }

    private func give(_ event: AgentModel.Event) {
        for effect in model.update(event) { carry(effect) }
    }

    private func carry(_ effect: AgentModel.Effect) {
        switch effect {
        case .say(let utterance):
            switch utterance.kind {
            case .question:
                questionSaid = utterance
                waitSaid = nil
                return
            case .waiting:
                waitSaid = utterance
                waitShown = false
                waitNews =
                    utterance.text.hasPrefix(AgentModel.sentence(wording.agentWithdrawn))
                    ? [wording.agentWithdrawn] : []
                return
            case .news: due.append(utterance.text)
            case .afterAnswer: carried.append(utterance.text)
            case .keysDropped, .reply, .readBack: break
            }
            // Said by the prompt (the field's own replies and counts, or this news), in the world's time: nothing
            // the model says next waits on it.
            give(.speechFinished(utterance.serial))
        case .send(let id, .cancel): sends.append((id, false))
        case .send(let id, .password): sends.append((id, true))
        case .dropHeld(let keys): dropped = (dropped ?? 0) + keys.count
        case .show, .wake, .examine: break
        }
    }
}
