import Testing

@testable import OTCPromptCore

/// "N more waiting" against every order in which three requests can arrive and end: answered or cancelled (Esc) by
/// the user, or withdrawn by their querier (while asked or while waiting). The directory is the truth; the watch's
/// events reach the agent late, in a batch, with the extra "written" event systemd-ask-password's close makes after
/// it has removed its file. Whenever the agent says how many wait (a request opened, a readback), it is the truth.
@Suite struct AgentQueueCountTests {
    enum Step: Equatable, CustomStringConvertible {
        case arrive(String)
        case answer(String)
        case cancel(String)
        case withdraw(String)

        var description: String {
            switch self {
            case .arrive(let name): "arrive \(name)"
            case .answer(let name): "answer \(name)"
            case .cancel(let name): "cancel \(name)"
            case .withdraw(let name): "withdraw \(name)"
            }
        }
    }

    /// The agent as `AgentRequests` drives the queue, against a directory of names.
    struct Agent {
        var directory: [String] = []
        /// What the watch has seen and the agent not yet read.
        var events: [(added: Bool, name: String)] = []
        var queue = AgentQueue()
        var asked: String?
        /// Each count said, with the truth at that moment.
        var said: [(count: Int, truth: Int)] = []

        mutating func apply(_ step: Step) {
            switch step {
            case .arrive(let name):
                directory.append(name)
                events.append((true, name))
            case .answer(let name), .cancel(let name):
                // The querier has its answer: it removes its file, then closes it.
                remove(name)
                events.append((true, name))
                asked = nil
            case .withdraw(let name):
                remove(name)
                if asked == name { asked = nil }
            }
        }

        private mutating func remove(_ name: String) {
            directory.removeAll { $0 == name }
            events.append((false, name))
        }

        /// Reads the events as `AgentRequests.take` does: a request written is queued only while it is there.
        mutating func take() {
            for event in events {
                let entry = AgentQueue.Entry(directory: 0, name: event.name)
                if event.added {
                    if directory.contains(event.name) { queue.arrived(entry) }
                } else {
                    queue.gone(entry)
                }
            }
            events = []
        }

        /// What the agent says now of the requests besides the one asked.
        mutating func sayCount() {
            take()
            let asked = self.asked.map { AgentQueue.Entry(directory: 0, name: $0) }
            let count = queue.waiting(besides: asked) { directory.contains($0.name) }.count
            said.append((count, directory.count - (self.asked == nil ? 0 : 1)))
        }

        /// Idle, the agent asks the next request (saying how many more wait); asking, a readback says it too.
        mutating func followUp() {
            if asked == nil {
                take()
                while let next = queue.takeNext() {
                    guard directory.contains(next.name) else { continue }
                    asked = next.name
                    sayCount()
                    return
                }
            } else {
                sayCount()
            }
        }
    }

    /// Every order of steps for `names`: each arrives once and ends once, answered or cancelled only while asked.
    static func orders(_ names: [String]) -> [[Step]] {
        var results: [[Step]] = []
        func explore(_ agent: Agent, _ steps: [Step], arrived: Set<String>, ended: Set<String>) {
            if ended.count == names.count {
                results.append(steps)
                return
            }
            var choices: [Step] = []
            for name in names where !arrived.contains(name) { choices.append(.arrive(name)) }
            for name in names where arrived.contains(name) && !ended.contains(name) {
                choices.append(.withdraw(name))
                if agent.asked == name { choices += [.answer(name), .cancel(name)] }
            }
            for step in choices {
                var next = agent
                next.apply(step)
                next.followUp()
                var nowArrived = arrived
                var nowEnded = ended
                if case .arrive(let name) = step { nowArrived.insert(name) } else { nowEnded.insert(step.name) }
                explore(next, steps + [step], arrived: nowArrived, ended: nowEnded)
            }
        }
        explore(Agent(), [], arrived: [], ended: [])
        return results
    }

    @Test func everyCountSaidIsTheTruthInEveryOrder() {
        let orders = Self.orders(["ask.1", "ask.2", "ask.3"])
        #expect(orders.count > 1000, "\(orders.count) orders")
        for order in orders {
            var agent = Agent()
            for step in order {
                agent.apply(step)
                agent.followUp()
            }
            let wrong = agent.said.filter { $0.count != $0.truth }
            #expect(wrong.isEmpty, "\(order): said \(agent.said.map(\.count)), truth \(agent.said.map(\.truth))")
            #expect(agent.queue.count == 0, "\(order): \(agent.queue.entries) left queued")
        }
    }

    /// The report's own case: three requests a moment apart, answered in turn; the last one says nothing waits.
    @Test func threeRequestsAnsweredInTurnSayTwoThenOneThenNone() {
        var agent = Agent()
        for step: Step in [.arrive("ask.1"), .arrive("ask.2"), .arrive("ask.3")] {
            agent.apply(step)
            if agent.asked == nil { agent.followUp() }
        }
        for name in ["ask.1", "ask.2", "ask.3"] {
            agent.apply(.answer(name))
            agent.followUp()
        }
        #expect(agent.said.map(\.count) == [0, 1, 0])
    }
}

extension AgentQueueCountTests.Step {
    var name: String {
        switch self {
        case .arrive(let name), .answer(let name), .cancel(let name), .withdraw(let name): name
        }
    }
}
