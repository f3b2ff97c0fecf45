import Glibc
import Testing

@testable import OTCPromptCore

/// The agent's rules checked over thousands of generated interleavings of requests (at once, 50 ms and 300 ms
/// apart, withdrawn in the wait, 300 at once), keys typed during speech, and a voice that starts late and is cut;
/// a failure names its seed, its pattern and the events that led to it (`AGENT_SEED=n` runs that case alone).
@Suite struct AgentModelInterleavingTests {
    static let cases: UInt64 = 3000

    @Test func everyInterleavingKeepsTheAgentsRules() {
        var patterns: [String: Int] = [:]
        let only = getenv("AGENT_SEED").flatMap { UInt64(String(cString: $0)) }
        for seed in only.map({ $0...$0 }) ?? 1...Self.cases {
            var world = AgentWorld(seed: seed)
            patterns[world.pattern, default: 0] += 1
            if let failure = world.run() {
                let events = world.invariants.log.suffix(only == nil ? 80 : 100_000).map(\.line).joined(separator: "\n")
                Issue.record("seed \(seed) (\(world.pattern)): \(failure)\n\(events)")
                return
            }
        }
        // The generator reaches every failure mode it was made for.
        #expect(only != nil || patterns.count == 6, "\(patterns)")
    }

    @Test func threeRequestsAtOnceAreOneQuestionThenOneMergedLine() {
        var model = AgentModel()
        var said: [String] = []
        func give(_ event: AgentModel.Event) {
            for case .say(let utterance) in model.update(event) { said.append(utterance.text) }
        }
        for name in ["alpha", "beta", "gamma"] {
            give(.appeared("ask.\(name)", subject: name, question: "Passphrase for \(name):", askable: true))
        }
        give(.speechStarted(1))
        give(.clock(.seconds(2)))
        give(.speechFinished(1))
        #expect(said == ["Passphrase for alpha.", "2 more waiting: beta, gamma."])
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
}
