import Testing

@testable import OTCPromptCore

/// The requests waiting, and what `Id=` says a request is for.
@Suite struct AgentQueueTests {
    @Test func requestsAreAskedOldestFirstAndEachOnce() {
        var queue = AgentQueue()
        let first = queue.add(.init(directory: 0, name: "ask.b"))
        let second = queue.add(.init(directory: 1, name: "ask.a"))
        let again = queue.add(.init(directory: 0, name: "ask.b"))
        #expect(first && second && !again)
        #expect(queue.next == .init(directory: 0, name: "ask.b"))
        #expect(queue.waitingBesidesNext == 1)
        let removed = queue.remove(.init(directory: 0, name: "ask.b"))
        let removedAgain = queue.remove(.init(directory: 0, name: "ask.b"))
        #expect(removed && !removedAgain)
        #expect(queue.next == .init(directory: 1, name: "ask.a"))
    }

    @Test(arguments: ["sck.1234", "ask.", "ask/x", ".ask.tmp", "tmp.ask.1"])
    func onlyAskFilesAreRequests(name: String) {
        var queue = AgentQueue()
        let added = queue.add(.init(directory: 0, name: name))
        #expect(!added && queue.count == 0)
    }

    @Test func aFullQueueTurnsMoreAwayAndSaysSo() {
        var queue = AgentQueue()
        for index in 0..<AgentQueue.capacity { queue.add(.init(directory: 0, name: "ask.\(index)")) }
        let added = queue.add(.init(directory: 0, name: "ask.more"))
        #expect(!added && queue.overflowed && queue.count == AgentQueue.capacity)
        // Read again while still full: the mark stays, so the rest are read once there is room.
        let all = (0...AgentQueue.capacity).map { AgentQueue.Entry(directory: 0, name: "ask.\($0)") }
        queue.rescan(all)
        #expect(queue.overflowed && queue.count == AgentQueue.capacity)
        // Half of them answered (their files gone): read again, the one turned away is queued at last.
        let answered = Set(all.prefix(AgentQueue.capacity / 2))
        for entry in answered { queue.remove(entry) }
        queue.rescan(all.filter { !answered.contains($0) })
        #expect(!queue.overflowed && queue.count == AgentQueue.capacity / 2 + 1)
        #expect(queue.entries.last?.name == "ask.\(AgentQueue.capacity)")
    }

    @Test(arguments: [
        ("cryptsetup:/dev/sda2", AskPurpose.disk("sda2")), ("cryptsetup:/dev/block/8:3", .disk("8:3")),
        ("cryptsetup-fido2:/dev/nvme0n1p3", .disk("nvme0n1p3")), ("home:alice", .home("alice")),
        ("cryptsetup:/dev/\u{1B}[2J", .disk("\\x1B[2J")),
    ])
    func aKnownIdSaysWhatIsAsked(id: String, purpose: AskPurpose) {
        #expect(AskPurpose(id: id) == purpose)
    }

    @Test(arguments: ["otc-prompt:sudo", "nocolon", "cryptsetup:", "", "vendor:thing"])
    func anUnknownIdSaysNothing(id: String) {
        #expect(AskPurpose(id: id) == nil)
    }
}
