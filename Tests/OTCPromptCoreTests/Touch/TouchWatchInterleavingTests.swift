import Glibc
import OTCPromptTestSupport
import Testing

@testable import OTCPromptCore

/// The touch watcher's rules over thousands of generated interleavings of pam_u2f's file and the detector's socket
/// (`TouchWorld`); a failure names its seed and pattern (`TOUCH_SEED=n` runs that case alone).
@Suite struct TouchWatchInterleavingTests {
    static let cases: UInt64 = 3000

    @Test func everyInterleavingIsOneCuePerWaitInTimeAndNothingWhileIdle() {
        SeededInterleavings.check(cases: Self.cases, replay: "TOUCH_SEED", patterns: 6) { seed, alone in
            var world = TouchWorld(seed: seed)
            let failure = world.run().map {
                "\(world.pattern), done \(world.saysRelease): \($0)\n"
                    + world.story(last: alone ? 100_000 : 30)
            }
            return (world.pattern, failure)
        }
    }
}
