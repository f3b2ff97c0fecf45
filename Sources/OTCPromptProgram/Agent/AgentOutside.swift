import OTCPromptCore
import OTCPromptFrontEnds
import OTCPromptHost
import OTCPromptLoop

/// The agent's other requests as the request being answered hears of them (`PromptSystem.outside`): the watch's
/// changes are read into the requests and given to the agent's model (`AgentSteps`), which decides what is said
/// and when (after the question has been heard, one line however many came, counted as it is said, at most once a
/// `AgentModel.newsInterval`); a readback's count is the model's too. The loop polls the watch on the agent's
/// thread.
final class AgentOutside: OutsideEvents {
    private let requests: AgentRequests
    private let steps: AgentSteps
    private let frontEnd: AgentFrontEnd
    /// A directory gone or back, not told yet.
    private var kept: [String] = []

    init(requests: AgentRequests, steps: AgentSteps, frontEnd: AgentFrontEnd) {
        self.requests = requests
        self.steps = steps
        self.frontEnd = frontEnd
    }

    var descriptor: Int32 { requests.watch.descriptor }

    var keepsNews: Bool { steps.keepsNews || !kept.isEmpty }

    /// The watch's changes taken now, the requests they bring read and given to the model; what it says is due.
    func news(openingHeard: Bool) -> [String] {
        let now = MonotonicInstant.now
        let changes = requests.watch.changes()
        if !changes.isEmpty {
            requests.take(changes)
            requests.examine(atMicroseconds: UInt64(clamping: now.nanoseconds / 1000))
            kept += requests.takeNews()
            steps.requestsAre(requests.examined, at: .nanoseconds(now.nanoseconds), id: \.key) {
                AgentProgram.examined($0, by: self.frontEnd)
            }
        }
        let lines = steps.news(openingHeard: openingHeard, at: .nanoseconds(now.nanoseconds))
        guard openingHeard else { return [] }
        defer { kept = [] }
        return kept + lines
    }

    func waiting() -> String? { steps.waitingLine() }
}
