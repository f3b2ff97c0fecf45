import OTCPromptCore
import OTCPromptFrontEnds
import OTCPromptHost
import OTCPromptLoop

/// The agent's other requests as the request being answered hears of them (`PromptSystem.outside`): after its
/// question has been heard, what waits besides it is said as one line, counted and named at that moment ("2 more
/// waiting: beta, gamma."), at most once a second however many arrive, without taking the field's keys; a readback
/// says the same, counted then. The loop polls the directories' watch on the agent's thread; no file is read for
/// an arrival, so keys never wait behind thousands of them.
final class AgentOutside: OutsideEvents {
    private let requests: AgentRequests
    /// The request being answered: not one of those waiting.
    private let asked: AgentQueue.Entry
    private let frontEnd: AgentFrontEnd
    /// A request arrived that is not told yet.
    private var arrived = false
    /// A directory gone or back, not told yet.
    private var kept: [String] = []
    private var lastTold: MonotonicInstant?
    /// What waits as last told (by the opening's count, then by each line of news): a line is said only when more
    /// wait than that, never again what was just heard.
    private var told: Set<AgentQueue.Entry>

    init(requests: AgentRequests, asked: AgentQueue.Entry, frontEnd: AgentFrontEnd) {
        self.requests = requests
        self.asked = asked
        self.frontEnd = frontEnd
        told = Set(requests.waiting(besides: asked))
    }

    var descriptor: Int32 { requests.watch.descriptor }

    var keepsNews: Bool { arrived || !kept.isEmpty }

    /// The watch's changes taken now; what waits said once the question has been heard (`AgentModel.newsInterval`
    /// after the last line of news at the soonest), one line for however many came.
    func news(openingHeard: Bool) -> [String] {
        let changes = requests.watch.changes()
        for case .added(let index, let name) in changes
        where AgentQueue.isRequestName(name) && AgentQueue.Entry(directory: index, name: name) != asked {
            // Only what this agent will ask: a request of the system's to a user is not.
            guard let directory = requests.directories[index], directory.owner != 0 || UserAccount.currentUID == 0
            else { continue }
            arrived = true
        }
        if !changes.isEmpty {
            requests.take(changes)
            kept += requests.takeNews()
        }
        let now = MonotonicInstant.now
        guard openingHeard, keepsNews else { return [] }
        if let lastTold, now - lastTold < AgentModel.newsInterval { return [] }
        lastTold = now
        var lines = kept
        kept = []
        if arrived {
            arrived = false
            // Counted now, from the directories: the truth at the moment it is said.
            let entries = requests.waiting(besides: asked)
            let known = told
            told = Set(entries)
            if !told.isSubset(of: known) {
                lines.append(
                    Wording(language: frontEnd.language).agentWaiting(
                        entries.count, subjects: requests.subjects(entries, frontEnd: frontEnd)))
            }
        }
        return lines
    }

    func waiting() -> String? {
        let entries = requests.waiting(besides: asked)
        return Wording(language: frontEnd.language).agentWaiting(
            entries.count, subjects: requests.subjects(entries, frontEnd: frontEnd))
    }
}
