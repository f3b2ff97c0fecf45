import Glibc
import Testing

@testable import OTCPromptHost

/// A notice told from another thread: pending until taken, taken once, and a relay woken by it.
@Suite struct NoticePipeTests {
    @Test func aNoticePostedIsPendingUntilTakenAndTakenOnce() throws {
        let notice = try NoticePipe()
        #expect(!notice.isPending)
        #expect(!notice.take())
        notice.post()
        notice.post()
        #expect(notice.isPending)
        #expect(notice.isPending, "looking does not take it")
        #expect(notice.take(), "two posts are one notice")
        #expect(!notice.isPending)
        #expect(!notice.take())
    }

    @Test func aNoticeFromAnotherThreadWakesARelayThatWatchesIt() throws {
        let notice = try NoticePipe()
        let relay = try HangUpRelay(watching: [notice.descriptor], deadline: nil, firesWhen: { notice.isPending })
        defer { relay.stop() }
        try DetachedThread.start { notice.post() }
        var hangUp = pollfd(fd: relay.descriptor, events: Int16(POLLIN), revents: 0)
        #expect(poll(&hangUp, 1, 10_000) == 1, "the relay never hung up")
        #expect(notice.take())
    }
}
