import Glibc
import OTCPromptTestSupport
import Testing

@testable import OTCPromptCore

/// The agent's rules checked over thousands of generated interleavings of requests (at once, 50 ms and 300 ms
/// apart, withdrawn in the wait, 300 at once), keys typed during speech, and a voice that starts late and is cut;
/// a failure names its seed, its pattern and the events that led to it (`AGENT_SEED=n` runs that case alone).
@Suite struct AgentModelInterleavingTests {
    static let cases: UInt64 = 3000

    @Test func everyInterleavingKeepsTheAgentsRules() {
        SeededInterleavings.check(cases: Self.cases, replay: "AGENT_SEED", patterns: 6) { seed, alone in
            var world = AgentWorld(seed: seed)
            let failure = world.run().map {
                "\(world.pattern): \($0)\n"
                    + world.invariants.log.suffix(alone ? 100_000 : 80).map(\.line).joined(separator: "\n")
            }
            return (world.pattern, failure)
        }
    }

    @Test func threeRequestsFoundTogetherAreOneQuestionCountingTheOthersInItsBreath() {
        var model = AgentModel()
        var said: [String] = []
        func give(_ event: AgentModel.Event) {
            for case .say(let utterance) in model.update(event) { said.append(utterance.text) }
        }
        give(
            .together(
                ["alpha", "beta", "gamma"].map {
                    .appeared("ask.\($0)", subject: $0, question: "Passphrase for \($0):", askable: true)
                }))
        give(.speechStarted(1))
        give(.clock(.seconds(2)))
        give(.speechFinished(1))
        #expect(said == ["Passphrase for alpha. 2 more waiting."])
    }

    @Test func requestsArrivingAfterTheQuestionWasSaidAreOneMergedLineOnceItIsHeard() {
        var model = AgentModel()
        var said: [String] = []
        func give(_ event: AgentModel.Event) {
            for case .say(let utterance) in model.update(event) { said.append(utterance.text) }
        }
        give(.appeared("ask.alpha", subject: "alpha", question: "Passphrase for alpha:", askable: true))
        give(.speechStarted(1))
        for (index, name) in ["beta", "gamma"].enumerated() {
            give(.clock(.milliseconds(300 * (index + 1))))
            give(.appeared("ask.\(name)", subject: name, question: "Passphrase for \(name):", askable: true))
        }
        #expect(said == ["Passphrase for alpha."])
        give(.clock(.seconds(2)))
        give(.speechFinished(1))
        #expect(said == ["Passphrase for alpha.", "2 more waiting: beta, gamma."])
    }

    /// A request that arrives while the next opening waits its turn (behind "Touch your security key.") is counted
    /// in that opening, and is not told again as news.
    @Test func aRequestArrivingBeforeTheOpeningIsSaidIsCountedInItNotToldAgain() {
        var model = AgentModel()
        var said: [String] = []
        func give(_ event: AgentModel.Event) {
            for case .say(let utterance) in model.update(event) { said.append(utterance.text) }
        }
        give(.appeared("ask.pin", subject: "pin", question: "PIN:", askable: true, afterAnswer: "Touch."))
        give(.speechStarted(1))
        give(.speechFinished(1))
        give(.key(.submit, serial: 1))
        give(.appeared("ask.b", subject: "b", question: "B:", askable: true))
        give(.answerSent("ask.pin"))
        // "Touch." is being said; B is open, its opening waits; C comes.
        give(.appeared("ask.c", subject: "c", question: "C:", askable: true))
        give(.speechFinished(model.speaking!.serial))
        let opening = model.speaking!.serial
        give(.speechStarted(opening))
        give(.clock(.seconds(5)))
        give(.speechFinished(opening))
        give(.clock(.seconds(10)))
        #expect(said == ["PIN.", "Touch.", "B. 1 more waiting."])
    }

    @Test func keysHeldAfterAWithdrawalEndInTheWaitOnceItHasBeenHeardAndAreCountedThen() {
        var model = AgentModel()
        var effects: [AgentModel.Effect] = []
        func give(_ event: AgentModel.Event) { effects += model.update(event) }
        give(.appeared("ask.a", subject: "a", question: "A", askable: true))
        give(.speechStarted(1))
        give(.speechFinished(1))
        give(.key(.character, serial: 1))
        give(.speechFinished(2))
        give(.vanished("ask.a"))
        give(.key(.character, serial: 2))
        give(.key(.escape, serial: 3))
        guard case .waiting? = model.speaking?.kind, let wait = model.speaking?.serial else {
            Issue.record("no wait said: \(effects)")
            return
        }
        #expect(model.speaking?.text == "Request withdrawn. Waiting for password requests.")
        give(.speechStarted(wait))
        give(.speechFinished(wait))
        give(.clock(.seconds(3)))
        #expect(effects.contains(.dropHeld(keys: [2, 3])))
        #expect(model.held == nil)
        // Heard, a key is the wait's: it says there is nothing to answer (Esc there stops the agent).
        effects = []
        give(.key(.character, serial: 4))
        #expect(
            effects.contains { if case .say(let said) = $0 { said.text == "No request to answer." } else { false } })
    }

    @Test func keysOfAWithdrawnRequestNeverReachTheNextAndAreCountedAsDropped() {
        var model = AgentModel()
        var effects: [AgentModel.Effect] = []
        func give(_ event: AgentModel.Event) { effects += model.update(event) }
        give(.appeared("ask.a", subject: "a", question: "A", askable: true))
        give(.speechStarted(1))
        for serial in 1...5 { give(.key(.character, serial: serial)) }
        give(.vanished("ask.a"))
        for serial in 6...11 { give(.key(.character, serial: serial)) }
        give(.clock(.milliseconds(300)))
        give(.appeared("ask.b", subject: "b", question: "B", askable: true))
        give(.key(.escape, serial: 12))
        let question = model.question!.serial
        give(.speechStarted(question))
        give(.speechFinished(question))
        give(.clock(.seconds(3)))
        #expect(effects.contains(.dropHeld(keys: Array(6...12))))
        #expect(!effects.contains { if case .send = $0 { true } else { false } })
        #expect(model.open == "ask.b")
    }

    @Test func aSecurityKeysPINIsFollowedByTouchOnceItsAnswerIsSentAndBeforeTheNextQuestion() {
        var model = AgentModel()
        var said: [String] = []
        var effects: [AgentModel.Effect] = []
        func give(_ event: AgentModel.Event) {
            let made = model.update(event)
            effects += made
            for case .say(let utterance) in made { said.append(utterance.text) }
        }
        give(
            .appeared(
                "ask.pin", subject: "disk root", question: "Security key PIN for disk root:", askable: true,
                afterAnswer: "Touch your security key."))
        give(.appeared("ask.home", subject: "disk home", question: "Passphrase for disk home:", askable: true))
        give(.speechStarted(1))
        give(.clock(.seconds(2)))
        give(.speechFinished(1))
        for serial in 1...4 { give(.key(.character, serial: serial)) }
        give(.key(.submit, serial: 5))
        // Sent, not yet known: nothing else is opened nor said.
        #expect(effects.last == .send("ask.pin", .password(keys: [1, 2, 3, 4])))
        #expect(model.open == nil && !said.contains("Touch your security key."))
        give(.answerSent("ask.pin"))
        #expect(said.suffix(1) == ["Touch your security key."])
        let touch = model.speaking!.serial
        give(.speechFinished(touch))
        #expect(said.last == "Passphrase for disk home.")
        #expect(model.open == "ask.home")
    }

    @Test func aCancelledOrUndeliveredPINIsNotFollowedByTouch() {
        for (key, event) in [(AgentModel.Key.escape, "sent"), (.submit, "failed")] {
            var model = AgentModel()
            var said: [String] = []
            func give(_ event: AgentModel.Event) {
                for case .say(let utterance) in model.update(event) { said.append(utterance.text) }
            }
            give(.appeared("ask.pin", subject: "root", question: "PIN", askable: true, afterAnswer: "Touch."))
            give(.speechStarted(1))
            give(.speechFinished(1))
            give(.key(key, serial: 1))
            give(event == "sent" ? .answerSent("ask.pin") : .answerFailed("ask.pin"))
            #expect(!said.contains("Touch."), "\(key), \(event): \(said)")
            #expect(model.isWaiting)
        }
    }
}
