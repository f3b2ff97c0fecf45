import OTCPromptCore
import OTCPromptFrontEnds
import OTCPromptHost
import OTCPromptLoop

/// The agent's other requests as the request being answered hears of them (`PromptSystem.outside`): one that
/// arrives is said at once, in short ("New request waiting: disk sda2."), without taking the field's keys, and a
/// readback says what waits, counted at that moment. The loop polls the directories' watch on the agent's thread.
final class AgentOutside: OutsideEvents {
    private let requests: AgentRequests
    /// The request being answered: not one of those waiting.
    private let asked: AgentQueue.Entry
    private let frontEnd: AgentFrontEnd

    init(requests: AgentRequests, asked: AgentQueue.Entry, frontEnd: AgentFrontEnd) {
        self.requests = requests
        self.asked = asked
        self.frontEnd = frontEnd
    }

    var descriptor: Int32 { requests.watch.descriptor }

    /// The requests that arrived and can be asked, in short; a directory gone or back. A flood of arrivals is
    /// counted, not read: only the first is read, for what it is for, so keys never wait behind thousands of files.
    func news() -> [String] {
        let changes = requests.watch.changes()
        guard !changes.isEmpty else { return [] }
        let now = UInt64(clamping: MonotonicInstant.now.nanoseconds / 1000)
        var arrived = 0
        var subject: String?
        for case .added(let index, let name) in changes
        where AgentQueue.isRequestName(name) && AgentQueue.Entry(directory: index, name: name) != asked {
            // Only what this agent will ask: a request of the system's to a user is not; the first one read is not
            // a refused file nor one given up.
            guard let directory = requests.directories[index], directory.owner != 0 || UserAccount.currentUID == 0,
                directory.contains(name)
            else { continue }
            if arrived == 0 {
                guard let file = try? directory.read(name),
                    ProcessLiveness.judge(pid: file.pid, mark: file.poster) != .gone,
                    !file.hasExpired(atMicroseconds: now)
                else { continue }
                subject = frontEnd.subject(of: file, from: directory.owner == 0 ? .system : .user)
            }
            arrived += 1
        }
        requests.take(changes)
        var lines = requests.takeNews()
        if let subject {
            lines.append(Wording(language: frontEnd.language).agentNewRequests(arrived, first: subject))
        }
        return lines
    }

    func waiting() -> String? {
        let entries = requests.waiting(besides: asked)
        return Wording(language: frontEnd.language).agentWaiting(
            entries.count, subjects: requests.subjects(entries, frontEnd: frontEnd))
    }
}
