import Testing

@testable import OTCPromptCore

/// The requests waiting, what the agent says of them, and what `Id=` says a request is for.
@Suite struct AgentQueueTests {
    private static func entry(_ name: String, _ directory: Int = 0) -> AgentQueue.Entry {
        .init(directory: directory, name: name)
    }

    private static let identity = AgentQueue.Identity(inode: 1, modified: 1)

    @Test func requestsAreAskedOldestFirstAndEachOnce() {
        var queue = AgentQueue()
        let first = queue.arrived(Self.entry("ask.b"))
        let second = queue.arrived(Self.entry("ask.a", 1))
        let again = queue.arrived(Self.entry("ask.b"))
        #expect(first && second && !again)
        #expect(queue.takeNext() == Self.entry("ask.b"))
        #expect(queue.waiting { _ in true } == [Self.entry("ask.a", 1)])
        let gone = queue.gone(Self.entry("ask.a", 1))
        let goneAgain = queue.gone(Self.entry("ask.a", 1))
        #expect(gone && !goneAgain)
        #expect(queue.takeNext() == nil)
    }

    @Test(arguments: ["sck.1234", "ask.", "ask/x", ".ask.tmp", "tmp.ask.1"])
    func onlyAskFilesAreRequests(name: String) {
        var queue = AgentQueue()
        let added = queue.arrived(Self.entry(name))
        #expect(!added && queue.count == 0)
    }

    @Test func aFullQueueTurnsMoreAwayAndReadsThemOnceThereIsRoom() {
        var queue = AgentQueue()
        let all = (0...AgentQueue.capacity).map { (name: "ask.\($0)", identity: Self.identity) }
        queue.rescan(directory: 0, found: all)
        #expect(queue.overflowed && queue.count == AgentQueue.capacity && !queue.wantsRescan)
        // Half of them answered (their files gone): the directory is read again, the one turned away queued at last.
        for _ in 0...(AgentQueue.capacity / 2) { _ = queue.takeNext() }
        #expect(queue.wantsRescan)
        queue.rescan(directory: 0, found: Array(all.dropFirst(AgentQueue.capacity / 2 + 1)))
        #expect(!queue.overflowed && queue.count == AgentQueue.capacity / 2)
        #expect(queue.entries.last?.name == "ask.\(AgentQueue.capacity)")
    }

    /// A request refused or skipped is remembered by its file: reading the directory again (an overflow, events
    /// lost) never queues it again, so thousands of bad files are read once, not in a loop.
    @Test func aSkippedRequestIsNeverQueuedAgainByARescanWhileItsFileIsTheSame() {
        var queue = AgentQueue()
        let found = (0..<5000).map {
            (name: "ask.\($0)", identity: AgentQueue.Identity(inode: UInt64($0), modified: 7))
        }
        var reads = 0
        queue.rescan(directory: 0, found: found)
        for _ in 0..<3 {
            while let next = queue.takeNext() {
                reads += 1
                queue.skip(next, identity: AgentQueue.Identity(inode: UInt64(next.name.dropFirst(4))!, modified: 7))
            }
            if queue.wantsRescan { queue.rescan(directory: 0, found: found) }
        }
        #expect(reads == 5000, "each file read once")
        #expect(queue.count == 0 && queue.skippedCount == 5000)
        // Rewritten under its name: a new request.
        var rewritten = found
        rewritten[3].identity.modified = 8
        queue.rescan(directory: 0, found: rewritten)
        #expect(queue.entries == [Self.entry("ask.3")])
        // Gone from the directory: forgotten.
        queue.rescan(directory: 0, found: [])
        #expect(queue.skippedCount == 0 && queue.count == 0)
    }

    @Test func aRequestWrittenAgainAfterItWasRefusedIsANewRequest() {
        var queue = AgentQueue()
        queue.arrived(Self.entry("ask.x"))
        let taken = queue.takeNext()
        #expect(taken == Self.entry("ask.x"))
        queue.skip(Self.entry("ask.x"), identity: Self.identity)
        #expect(queue.wasSkipped(Self.entry("ask.x")))
        queue.rescan(directory: 0, found: [("ask.x", Self.identity)])
        #expect(queue.count == 0)
        let again = queue.arrived(Self.entry("ask.x"))
        #expect(again, "its file was written again")
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
