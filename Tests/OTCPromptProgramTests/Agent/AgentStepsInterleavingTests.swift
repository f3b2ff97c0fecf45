import Glibc
import OTCPromptCore
import Testing

@testable import OTCPromptProgram

/// The agent's loop's translation (`AgentSteps`) driven by a scripted world through seeded interleavings: requests
/// found and gone, prompts opened whose openings are heard late or never, news polled as the prompt does, Esc,
/// Enter, answers delivered or not, a readback, the wait heard. The rules are judged from what the world saw:
/// what each opening said first and counted, each line of news, each decline; a failure names its seed and the
/// world's record (`AGENT_SEED=n` runs that case alone).
@Suite struct AgentStepsInterleavingTests {
    static let cases: UInt64 = 1500

    /// SplitMix64, as the model's own generator.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
        mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    }

    struct World {
        var random: Random
        let steps = AgentSteps(language: Language(rawValue: "en")!)
        var now: Duration = .zero
        /// Requests there, oldest first, and when each is withdrawn (nil: never).
        var present: [AgentSteps.Examined] = []
        var schedule: [(at: Duration, id: String, withdrawAt: Duration?, pin: Bool)] = []
        var withdrawals: [String: Duration] = [:]
        var opened: [String] = []
        var record: [String] = []
        var failure: String?
        /// The prompt open: its request (nil for the wait), when its opening is heard, and when the user acts.
        var open: (id: String?, heardAt: Duration, actAt: Duration)?
        var heard = false
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
            random = Random(state: seed)
            let count = 1 + random.below(5)
            var at = Duration.milliseconds(random.below(500))
            let gap = [0, 50, 300, 1000][random.below(4)]
            for index in 0..<count {
                let withdraw = random.chance(30) ? at + .milliseconds(100 + random.below(4000)) : nil
                schedule.append((at, "ask.\(index)", withdraw, random.chance(20)))
                at += .milliseconds(gap + random.below(gap + 1))
            }
        }

        mutating func fail(_ message: String) { if failure == nil { failure = message } }

        /// The truth a count must say: requests there, not opened.
        var truth: [String] { present.map(\.id).filter { !opened.contains($0) } }

        mutating func run() -> String? {
            var tick = 0
            while now < .seconds(30), failure == nil, tick < 1000 {
                tick += 1
                now += Self.tick
                for item in schedule where item.at <= now && item.at > now - Self.tick {
                    present.append(.init(id: item.id, subject: item.id, afterAnswer: item.pin ? "Touch." : nil))
                    if let at = item.withdrawAt { withdrawals[item.id] = at }
                    record.append("\(now) posted \(item.id)")
                }
                for (id, at) in withdrawals where at <= now {
                    withdrawals[id] = nil
                    present.removeAll { $0.id == id }
                    record.append("\(now) withdrawn \(id)")
                    if open?.id == id {
                        // The loop: the prompt ends, its request forgotten; the next opening says so. The user may
                        // go on typing its password until they hear what comes next.
                        open = nil
                        owed = ["Request withdrawn."]
                        if random.chance(70) { typingFor = id }
                    }
                }
                // The prompt's own turn first (it ends when the directories change), then the loop's.
                release()
                // As the loop: the directories are looked at unless a field the model opened waits to be opened.
                if !steps.awaitsOpening {
                    steps.requestsAre(present, at: now, id: \.id) { $0 }
                }
                type()
                if let prompt = open { poll(prompt) }
                // A prompt that ended is followed at once by what the model opens next.
                if open == nil { openNext() }
                if schedule.allSatisfy({ $0.at < now }) && present.isEmpty && open?.id == nil {
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
            open = (id, heardAt, now + .milliseconds(random.below(6000)))
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

        mutating func poll(_ prompt: (id: String?, heardAt: Duration, actAt: Duration)) {
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
                if !line.hasPrefix("\(truth.count) more waiting") {
                    fail("news \"\(line)\" with \(truth.count) waiting")
                }
                if Set(truth).isSubset(of: told) { fail("news \"\(line)\" with nothing new since it was counted") }
                told = Set(truth)
            }
            if random.chance(3) {
                let line = steps.waitingLine()
                let said = line.map { Int($0.prefix { $0.isNumber }) ?? -1 } ?? 0
                if said != truth.count { fail("readback \"\(line ?? "")\" with \(truth.count) waiting") }
            }
            guard now >= prompt.actAt else { return }
            if steps.holds {
                // Held like any key: Esc or Enter typed before the question was heard answers nothing.
                steps.held(1, at: now)
                heldTyped += 1
                open?.actAt = now + .milliseconds(500 + random.below(3000))
                return
            }
            open = nil
            if random.chance(25) {
                let declined = steps.escape()
                record.append("\(now) Esc on \(id): declined \(declined ?? "nothing")")
                if declined != id { fail("Esc on \(id) declined \(declined ?? "nothing")") }
                reached.insert("Esc")
            } else {
                steps.submitted(id)
                let delivered = !random.chance(10)
                steps.sent(id, delivered: delivered)
                record.append("\(now) answered \(id), delivered: \(delivered)")
                let pin = schedule.first { $0.id == id }?.pin == true
                if delivered && pin { owed = ["Touch."] }
            }
            present.removeAll { $0.id == id }
        }
    }

    @Test func everyInterleavingTheLoopTranslatesKeepsTheAgentsRules() {
        let only = getenv("AGENT_SEED").flatMap { UInt64(String(cString: $0)) }
        var reached: Set<String> = []
        for seed in only.map({ $0...$0 }) ?? 1...Self.cases {
            var world = World(seed: seed)
            if let failure = world.run() {
                Issue.record("seed \(seed): \(failure)\n\(world.record.suffix(40).joined(separator: "\n"))")
                return
            }
            reached.formUnion(world.reached)
        }
        // The generator takes every path it was made for.
        #expect(only != nil || reached.count == 7, "\(reached.sorted())")
    }
}

@Suite struct AgentStepsTests {
    let language = Language(rawValue: "en")!

    private func request(_ id: String, afterAnswer: String? = nil) -> AgentSteps.Examined {
        AgentSteps.Examined(id: id, subject: id, afterAnswer: afterAnswer)
    }

    /// A hold begun by a withdrawal goes on through a wait cut by the next request into that request, and its count
    /// is every key since the withdrawal, said once: the rule once kept by the loop as `heldAlready`.
    @Test func aHoldCarriedFromTheWaitIntoTheNextRequestCountsEveryKeyOnce() {
        let steps = AgentSteps(language: language)
        steps.requestsAre([request("ask.a")], at: .seconds(1), id: \.id) { $0 }
        #expect(steps.opening() == .init(id: "ask.a", news: [], waiting: 0))
        steps.requestsAre([], at: .seconds(2), id: \.id) { $0 }
        #expect(steps.holds)
        #expect(steps.opening().news == ["Request withdrawn."])
        steps.held(3, at: .seconds(2) + .milliseconds(200))
        // The wait not heard yet: B ends it and meets the hold.
        #expect(steps.release(heard: false, at: .seconds(2) + .milliseconds(300)) == nil)
        steps.requestsAre([request("ask.b")], at: .seconds(2) + .milliseconds(400), id: \.id) { $0 }
        #expect(steps.opening() == .init(id: "ask.b", news: ["Request withdrawn."], waiting: 0))
        steps.held(2, at: .seconds(2) + .milliseconds(500))
        #expect(steps.release(heard: true, at: .seconds(3)) == nil, "the keys have not stopped long enough")
        #expect(steps.release(heard: true, at: .seconds(4)) == 5)
        #expect(!steps.holds && steps.release(heard: true, at: .seconds(5)) == nil)
        #expect(steps.escape() == "ask.b")
    }

    /// A request written again under the name of one answered and gone is a new request, asked again.
    @Test func aRequestWrittenAgainUnderAnAnsweredOnesNameIsAskedAgain() {
        let steps = AgentSteps(language: language)
        steps.requestsAre([request("ask.a")], at: .seconds(1), id: \.id) { $0 }
        #expect(steps.opening().id == "ask.a")
        steps.submitted("ask.a")
        steps.sent("ask.a", delivered: true)
        steps.requestsAre([], at: .seconds(2), id: \.id) { $0 }
        #expect(steps.open == nil)
        steps.requestsAre([request("ask.a")], at: .seconds(3), id: \.id) { $0 }
        #expect(steps.open == "ask.a")
        #expect(steps.opening() == .init(id: "ask.a", news: [], waiting: 0))
    }

    /// A PIN's "Touch your security key." comes once its answer has been sent, first in what opens next; not when the
    /// answer could not be sent.
    @Test func whatAnAnswerAsksOfTheUserIsSaidFirstByWhatOpensNextOnceItIsSent() {
        for delivered in [true, false] {
            let steps = AgentSteps(language: language)
            steps.requestsAre([request("ask.pin", afterAnswer: "Touch.")], at: .seconds(1), id: \.id) { $0 }
            _ = steps.opening()
            steps.submitted("ask.pin")
            steps.sent("ask.pin", delivered: delivered)
            steps.requestsAre([request("ask.home")], at: .seconds(2), id: \.id) { $0 }
            #expect(steps.opening() == .init(id: "ask.home", news: delivered ? ["Touch."] : [], waiting: 0))
        }
    }
}
