import OTCPromptCore
import OTCPromptTestSupport

/// A seeded world around `AgentModel`: requests posted and withdrawn, a user typing at their pace into what they
/// last heard asked, and a voice that starts late, takes time to speak and is cut by what is said next; the clock
/// is scripted. Every event it gives the model and every effect it gets back go to `AgentInvariants`.
struct AgentWorld {
    /// What the world does next, at a time.
    enum Happening {
        case post(String, askable: Bool, afterAnswer: Bool)
        case withdraw(String)
        /// The user presses a key; `burst` more follow at their pace.
        case press(AgentModel.Key, burst: Int)
        case started(Int)
        case finished(Int)
        case wake
        case sent(String)
    }

    let seed: UInt64
    var random: SeededRandom
    var model = AgentModel()
    var invariants = AgentInvariants()
    var agenda: [(time: Duration, order: Int, happening: Happening)] = []
    var order = 0
    var now: Duration = .zero
    /// What the voice is saying, and when each line given to it begins.
    var voice: Int?
    var keySerial = 0
    /// How the requests of this case come: the failure modes of the field, and the rest at random.
    let pattern: String

    init(seed: UInt64) {
        self.seed = seed
        random = SeededRandom(seed: seed)
        let patterns = ["at once", "50 ms apart", "300 ms apart", "spread", "withdrawn in the wait", "300 at once"]
        // One case in forty is a flood: costly, and one is enough to show its one line.
        let choice = random.chance(3) ? 5 : random.below(5)
        pattern = patterns[choice]
        let count = choice == 5 ? 300 : 1 + random.below(4)
        var at: Duration = random.milliseconds(0...500)
        for index in 0..<count {
            let id = "ask.\(index)"
            // Now and then a security key's PIN, whose answer is followed by "Touch your security key.".
            schedule(at, .post(id, askable: choice == 5 || !random.chance(10), afterAnswer: random.chance(20)))
            if choice != 5 && (random.chance(35) || (choice == 4 && index == 0)) {
                // Withdrawn while asked, waiting, or while the user types.
                schedule(at + random.milliseconds(100...4000), .withdraw(id))
            }
            switch choice {
            case 0: break
            case 1: at += .milliseconds(50)
            case 2: at += .milliseconds(300)
            case 4: at += random.milliseconds(100...1000) + (index == 0 ? .seconds(4) : .zero)
            default: at += random.milliseconds(0...3000)
            }
        }
        // The user: bursts of typing, now and then Esc, Ctrl-R or Enter, some while something is said.
        var typing: Duration = random.milliseconds(0...1500)
        for _ in 0..<(1 + random.below(6)) {
            let key: AgentModel.Key =
                random.chance(10) ? .escape : random.chance(10) ? .readBack : random.chance(15) ? .submit : .character
            schedule(typing, .press(key, burst: key == .character ? random.below(12) : 0))
            typing += random.milliseconds(200...3000)
        }
    }

    /// Kept in order of time, then of scheduling: the next happening is the last.
    mutating func schedule(_ time: Duration, _ happening: Happening) {
        order += 1
        var low = 0
        var high = agenda.count
        while low < high {
            let middle = (low + high) / 2
            if agenda[middle].time > time { low = middle + 1 } else { high = middle }
        }
        agenda.insert((time, order, happening), at: low)
    }

    /// Runs the case to its end (nothing left to happen, or ten minutes of its clock); the first violation, if any.
    mutating func run() -> String? {
        var steps = 0
        while let last = agenda.last, last.time < .seconds(600), steps < 20_000 {
            steps += 1
            let (time, _, happening) = agenda.removeLast()
            if time > now {
                now = time
                give(.clock(time))
            }
            happen(happening)
            if let failure = invariants.failure { return failure }
        }
        if let failure = invariants.finish(model) { return failure }
        return invariants.failure
    }

    private mutating func happen(_ happening: Happening) {
        switch happening {
        case .post(let id, let askable, let afterAnswer):
            invariants.posted(id, askable: askable, saysAfterAnswer: afterAnswer)
            give(
                .appeared(
                    id, subject: id, question: "Passphrase for \(id):", askable: askable,
                    afterAnswer: afterAnswer ? "Touch your security key." : nil))
        case .withdraw(let id):
            invariants.withdrawn(id)
            give(.vanished(id))
        case .press(let key, let burst):
            keySerial += 1
            invariants.pressed(key, serial: keySerial, at: now)
            give(.key(key, serial: keySerial))
            if burst > 0 { schedule(now + random.milliseconds(80...400), .press(.character, burst: burst - 1)) }
        case .started(let serial):
            guard voice == serial else { return }
            invariants.started(serial, at: now)
            give(.speechStarted(serial))
        case .finished(let serial):
            guard voice == serial else { return }
            voice = nil
            invariants.ended(serial, cut: false)
            give(.speechFinished(serial))
        case .wake: break
        case .sent(let id):
            invariants.sent(id)
            give(.answerSent(id))
            invariants.sentAndTold(id)
        }
    }

    private mutating func give(_ event: AgentModel.Event) {
        invariants.log.append(.event(now, event))
        let effects = model.update(event)
        invariants.check(effects, model: model, at: now)
        for effect in effects {
            invariants.log.append(.effect(effect))
            switch effect {
            case .say(let utterance):
                // What is said next cuts what is being said.
                if let cut = voice {
                    voice = nil
                    invariants.ended(cut, cut: true)
                    give(.speechCut(cut))
                }
                voice = utterance.serial
                let start = now + random.milliseconds(0...150)
                schedule(start, .started(utterance.serial))
                // About espeak-ng's default rate: 14 characters a second.
                schedule(start + .milliseconds(70 * utterance.text.count), .finished(utterance.serial))
            case .send(let id, _):
                schedule(now, .sent(id))
            case .wake(let time):
                schedule(max(time, now), .wake)
            case .show, .dropHeld, .examine: break
            }
        }
    }
}
