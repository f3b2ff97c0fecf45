import OTCPromptCore
import OTCPromptTestSupport
import Testing

@testable import OTCPromptProgram

/// The agent's loop's translation (`AgentSteps`) driven by a scripted world through seeded interleavings: requests
/// found and gone, prompts opened whose openings are heard late or never, news polled as the prompt does, Esc,
/// Enter, answers delivered or not, a readback, the wait heard; a file replaced under its name; a field whose request
/// went on screen a moment longer (its relay not yet fired) and answered there. The rules are judged from what the
/// world saw: what each opening said first and counted, each line of news, each decline, each answer the loop sent;
/// a failure names its seed and the world's record (`AGENT_SEED=n` runs that case alone).
@Suite struct AgentStepsInterleavingTests {
    static let cases: UInt64 = 1500
    /// The paths the generator was made for; a full run takes each.
    static let paths = 10

    struct World {
        var random: SeededRandom
        let steps = AgentSteps(language: Language(rawValue: "en")!)
        var now: Duration = .zero
        /// Requests there, oldest first, each by its file ("ask.0@2": the second file under the name "ask.0").
        var present: [AgentSteps.Examined] = []
        /// Each name's posting, when it is withdrawn and when its file is replaced by another (nil: never).
        var schedule: [(at: Duration, name: String, withdrawAt: Duration?, replaceAt: Duration?, pin: Bool)] = []
        var withdrawals: [String: Duration] = [:]
        var replacements: [String: Duration] = [:]
        /// How many files each name has had.
        var files: [String: Int] = [:]
        /// The answers the loop sent, as "file: password" or "file: decline".
        var sent: [String] = []
        var opened: [String] = []
        var record: [String] = []
        var failure: String?
        /// The prompt open: its request (nil for the wait), when its opening is heard, when the user acts, and when its
        /// relay ends it, its request gone (nil: not gone).
        var open: (id: String?, heardAt: Duration, actAt: Duration, endsAt: Duration?)?
        var heard = false
        /// The truth as the tick began: news the prompt's hold decided before the loop looked (`release`) says it.
        var before: [String] = []
        /// What the user heard counted last (by the opening or news): news says only what is more.
        var told: Set<String> = []
        var lastNews: Duration?
        /// What the last prompt's end owes the next opening.
        var owed: [String] = []
        /// The request withdrawn under the user's fingers they still type for, not having heard what came next.
        var typingFor: String?
        /// Keys typed while the model held them, since the last count it said.
        var heldTyped = 0
        /// While the agent waits: when its line is heard.
        var waitHeardAt: Duration?
        /// What the case reached, for the run's own check that every path was taken.
        var reached: Set<String> = []

        /// The prompt polls its news this often (`HeldKeys.speakingRecheck`).
        static let tick: Duration = .milliseconds(100)

        init(seed: UInt64) {
            random = SeededRandom(seed: seed)
            let count = 1 + random.below(5)
            var at = Duration.milliseconds(random.below(500))
            let gap = [0, 50, 300, 1000][random.below(4)]
            for index in 0..<count {
                let withdraw = random.chance(30) ? at + .milliseconds(100 + random.below(4000)) : nil
                let replace = random.chance(20) ? at + .milliseconds(100 + random.below(4000)) : nil
                schedule.append((at, "ask.\(index)", withdraw, replace, random.chance(20)))
                at += .milliseconds(gap + random.below(gap + 1))
            }
        }

        /// A new file under `name`, at the end of the requests there.
        mutating func post(_ name: String) {
            files[name, default: 0] += 1
            let id = "\(name)@\(files[name]!)"
            let pin = schedule.first { $0.name == name }?.pin == true
            present.append(.init(id: id, subject: id, afterAnswer: pin ? "Touch." : nil))
            record.append("\(now) posted \(id)")
        }

        /// `name`'s file gone (withdrawn, or replaced by another): its prompt, if open, ends at once or a moment later,
        /// as its relay fires.
        mutating func remove(_ name: String, why: String) {
            guard let index = present.firstIndex(where: { $0.id.hasPrefix(name + "@") }) else { return }
            let id = present.remove(at: index).id
            record.append("\(now) \(why) \(id)")
            guard open?.id == id, open?.endsAt == nil else { return }
            open?.endsAt = now + (random.chance(50) ? .zero : .milliseconds(random.below(400)))
        }

        /// The prompt's relay ends it: its request is gone. The next opening says so. The user may go on typing its
        /// password until they hear what comes next.
        mutating func end() {
            guard let prompt = open, let endsAt = prompt.endsAt, now >= endsAt else { return }
            open = nil
            owed = ["Request withdrawn."]
            if random.chance(70) { typingFor = prompt.id }
        }

        mutating func fail(_ message: String) { if failure == nil { failure = message } }

        /// The truth a count must say: requests there, not opened.
        var truth: [String] { present.map(\.id).filter { !opened.contains($0) } }

        mutating func run() -> String? {
            var tick = 0
            while now < .seconds(30), failure == nil, tick < 1000 {
                tick += 1
                now += Self.tick
                before = truth
                // Nothing else changes while a field outlives its request: the count its successor's opening said
                // was true when the model opened it, and stays so until the world opens it.
                for item in schedule where item.at <= now && files[item.name] == nil && open?.endsAt == nil {
                    post(item.name)
                    withdrawals[item.name] = item.withdrawAt
                    replacements[item.name] = item.replaceAt
                }
                for (name, at) in withdrawals where at <= now && open?.endsAt == nil {
                    withdrawals[name] = nil
                    remove(name, why: "withdrawn")
                }
                for (name, at) in replacements where at <= now && open?.endsAt == nil {
                    replacements[name] = nil
                    guard present.contains(where: { $0.id.hasPrefix(name + "@") }) else { continue }
                    // Another file renamed over it: the same name, another request.
                    remove(name, why: "replaced")
                    post(name)
                    reached.insert("replaced")
                }
                // The prompt's own turn first (it ends when the directories change), then the loop's.
                release()
                // As the loop: the directories are looked at unless a field the model opened waits to be opened; as the
                // prompt still open (`AgentOutside`), whatever the model opened.
                if !steps.awaitsOpening || open?.id != nil {
                    steps.requestsAre(present, at: now, id: \.id) { $0 }
                }
                type()
                if let prompt = open { poll(prompt) }
                end()
                // A prompt that ended is followed at once by what the model opens next.
                if open == nil { openNext() }
                // Not before a hold has ended: its count is judged too.
                if schedule.allSatisfy({ $0.at < now }) && present.isEmpty && open?.id == nil && !steps.holds
                    && !steps.hasDropped
                {
                    break
                }
            }
            return failure
        }

        mutating func openNext() {
            let opening = steps.opening()
            guard let id = opening.id else {
                // The wait: its news once, when it begins; heard a while later.
                guard waitHeardAt == nil else { return }
                record.append("\(now) wait: \(opening.news)")
                if opening.news != owed { fail("the wait said \(opening.news), owed \(owed)") }
                // What the wait says is owed again only if it is not heard (the model says it with what comes next).
                owed = owed.filter { $0 == "Request withdrawn." }
                waitHeardAt = now + .milliseconds(random.below(3000))
                return
            }
            waitHeardAt = nil
            record.append("\(now) opened \(id): \(opening.news) +\(opening.waiting)")
            if let oldest = truth.first, oldest != id { fail("\(id) opened before \(oldest)") }
            if opened.contains(id) { fail("\(id) opened twice") }
            opened.append(id)
            if !present.contains(where: { $0.id == id }) { fail("\(id) opened, not there") }
            if opening.waiting != truth.count {
                fail("opening of \(id) counted \(opening.waiting), \(truth.count) wait")
            }
            if opening.news != owed { fail("opening of \(id) said \(opening.news) first, owed \(owed)") }
            if opening.waiting > 0 { reached.insert("a count in the opening") }
            if owed.contains("Touch.") { reached.insert("touch") }
            if owed.contains("Request withdrawn.") { reached.insert("withdrawn") }
            owed = []
            told = Set(truth)
            heard = false
            let heardAt = now + .milliseconds(random.chance(10) ? 60_000 : 200 + random.below(3000))
            open = (id, heardAt, now + .milliseconds(random.below(6000)), nil)
        }

        /// The user types on for the request withdrawn: every key held by the model, never another's.
        mutating func type() {
            guard let gone = typingFor, random.chance(70) else { return }
            guard steps.holds else { return fail("a key typed for \(gone) reached \(open?.id ?? "the wait")") }
            steps.held(1, at: now)
            heldTyped += 1
        }

        /// The prompt holding the keys asks whether the hold ends, as `AgentHold` does on each of its turns.
        mutating func release() {
            guard steps.holds || steps.hasDropped else { return }
            let heard = waitHeardAt.map { now >= $0 } ?? (open.map { now >= $0.heardAt } ?? false)
            if heard {
                typingFor = nil
                if waitHeardAt != nil { owed = [] }
            }
            guard let count = steps.release(heard: heard, at: now) else { return }
            record.append("\(now) released: \(count) dropped")
            if count > 0 { reached.insert(waitHeardAt == nil ? "keys dropped in a field" : "keys dropped in the wait") }
            if count != heldTyped { fail("\(heldTyped) keys held, \(count) said dropped") }
            heldTyped = 0
        }

        mutating func poll(_ prompt: (id: String?, heardAt: Duration, actAt: Duration, endsAt: Duration?)) {
            guard let id = prompt.id else { return }
            if now >= prompt.heardAt { heard = true }
            for line in steps.news(openingHeard: heard, at: now) {
                record.append("\(now) news \(line)")
                if !heard { fail("news \"\(line)\" before \(id)'s opening was heard") }
                if let lastNews, now - lastNews < AgentModel.newsInterval {
                    fail("news \"\(line)\" a line per request")
                }
                lastNews = now
                reached.insert("news")
                guard let known = [truth, before].first(where: { line.hasPrefix("\($0.count) more waiting") }) else {
                    fail("news \"\(line)\" with \(truth.count) waiting")
                    continue
                }
                if Set(known).isSubset(of: told) { fail("news \"\(line)\" with nothing new since it was counted") }
                told = Set(known)
            }
            // Not in a field that outlives its request: what waits then is what waits besides the one opened next.
            if random.chance(3), prompt.endsAt == nil {
                let line = steps.waitingLine()
                let said = line.map { Int($0.prefix { $0.isNumber }) ?? -1 } ?? 0
                if said != truth.count { fail("readback \"\(line ?? "")\" with \(truth.count) waiting") }
            }
            guard now >= prompt.actAt else { return }
            // Its request gone, the field is still on screen until its relay ends it: a key goes to the field.
            if prompt.endsAt != nil { return act(on: id, gone: true) }
            if steps.holds {
                // Held like any key: Esc or Enter typed before the question was heard answers nothing.
                steps.held(1, at: now)
                heldTyped += 1
                open?.actAt = now + .milliseconds(500 + random.below(3000))
                return
            }
            act(on: id, gone: false)
        }

        /// Esc or Enter in `id`'s field, `gone` when its file is no longer there. The loop sends what the model sends
        /// (`escape`, `submitted`), to a file still under its name; the rule: an answer goes only to the request
        /// whose field it was typed in, while its file is there, and always then.
        mutating func act(on id: String, gone: Bool) {
            open = nil
            let there = present.contains { $0.id == id }
            let escape = random.chance(25)
            let sends = escape ? steps.escape(id) : steps.submitted(id)
            if sends && there { sent.append("\(id): \(escape ? "decline" : "password")") }
            record.append("\(now) \(escape ? "Esc" : "Enter") on \(id)\(gone ? ", gone" : ""): sent \(sends && there)")
            if gone {
                reached.insert(escape ? "Esc after it went" : "Enter after it went")
                // The model was told (`requestsAre`) before the key: it sends nothing, Esc's decline neither.
                if sends { fail("the model sent \(id) an answer after it went") }
                // The model closed it: what opens next says it was withdrawn.
                owed = ["Request withdrawn."]
                return
            }
            if !there || !sends { return fail("\(escape ? "Esc" : "Enter") on \(id), open and there, sent nothing") }
            if escape {
                reached.insert("Esc")
            } else {
                let delivered = !random.chance(10)
                steps.sent(id, delivered: delivered)
                let pin = present.first { $0.id == id }?.afterAnswer != nil
                if delivered && pin { owed = ["Touch."] }
            }
            present.removeAll { $0.id == id }
        }
    }

    @Test func everyInterleavingTheLoopTranslatesKeepsTheAgentsRules() {
        SeededInterleavings.check(cases: Self.cases, replay: "AGENT_SEED", paths: Self.paths) { seed, alone in
            var world = World(seed: seed)
            let failure = world.run().map {
                "\($0)\n" + world.record.suffix(alone ? 100_000 : 40).joined(separator: "\n")
            }
            return (world.reached, failure)
        }
    }
}
