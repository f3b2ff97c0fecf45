import Foundation
import OTCPromptTestSupport
import Testing

/// speech-dispatcher's log as the tests read it: replies with their times, in order even across midnight.
@Suite struct SpeechDispatcherLogTests {
    @Test func aReplyAfterMidnightComesAfterOneBeforeIt() throws {
        let path = NSTemporaryDirectory() + "otc-speechd-log-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try """
            [Sat Nov 28 23:59:56 2026 : 437475] speechd: 7:REPLY:|702-3|
            [Sun Nov 29 00:00:04 2026 : 43044] speechd: 8:REPLY:|702-4|
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let log = SpeechDispatcherLog(path: path)
        let before = try #require(log.time(of: 702, for: 3))
        let after = try #require(log.time(of: 702, for: 4))
        #expect(after > before)
        #expect(abs(after - before - 7.605569) < 0.000_001)
    }
}
