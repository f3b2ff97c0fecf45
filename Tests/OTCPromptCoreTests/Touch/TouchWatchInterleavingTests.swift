import Glibc
import Testing

@testable import OTCPromptCore

/// The touch watcher's rules over thousands of generated interleavings of pam_u2f's file and the detector's socket
/// (`TouchWorld`); a failure names its seed and pattern (`TOUCH_SEED=n` runs that case alone).
@Suite struct TouchWatchInterleavingTests {
    static let cases: UInt64 = 3000

    @Test func everyInterleavingIsOneCuePerWaitInTimeAndNothingWhileIdle() {
        var patterns: [String: Int] = [:]
        let only = getenv("TOUCH_SEED").flatMap { UInt64(String(cString: $0)) }
        for seed in only.map({ $0...$0 }) ?? 1...Self.cases {
            var world = TouchWorld(seed: seed)
            patterns[world.pattern, default: 0] += 1
            if let failure = world.run() {
                let events = world.log.suffix(only == nil ? 30 : 100_000).joined(separator: "\n")
                Issue.record("seed \(seed) (\(world.pattern), done \(world.saysRelease)): \(failure)\n\(events)")
                return
            }
        }
        #expect(only != nil || patterns.count == 6, "\(patterns)")
    }
}
