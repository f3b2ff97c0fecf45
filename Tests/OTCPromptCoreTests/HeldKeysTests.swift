import Testing

@testable import OTCPromptCore

/// `TypeAheadRule.heldUntilHeard`: after a switch the user may not have heard, every key is dropped until the
/// opening has been heard and the terminal has been quiet; then how many were dropped is said.
@Suite struct HeldKeysTests {
    let quiet = Duration.milliseconds(1500)

    /// A listener typing the last request's password a key every 0.45 s: none of it reaches the new one, however
    /// long they go on, and the hold ends only once they stop and the opening has been heard.
    @Test func aListenersPaceNeverGetsThrough() {
        var held = HeldKeys(quiet: quiet, since: .zero)
        var time = Duration.zero
        for _ in 0..<12 {
            time += .milliseconds(450)
            #expect(held.take([.character("x")], at: time).isEmpty)
            #expect(held.release(at: time, speaking: false) == nil)
        }
        time += .milliseconds(450)
        #expect(held.take([.submit], at: time).isEmpty)
        #expect(held.release(at: time + .milliseconds(1400), speaking: false) == nil)
        #expect(held.release(at: time + quiet, speaking: true) == nil, "the opening is still being said")
        #expect(held.deadline(at: time + quiet, speaking: true) == time + quiet + HeldKeys.speakingRecheck)
        #expect(held.release(at: time + quiet + .milliseconds(200), speaking: false) == 13)
        #expect(!held.isHolding)
        #expect(held.take([.character("y")], at: time + .seconds(5)) == [.character("y")])
    }

    @Test func escapeAndControlCAreHeldToo() {
        var held = HeldKeys(quiet: quiet, since: .zero)
        #expect(held.take([.escape, .interrupt, .endOfInput], at: .milliseconds(150)).isEmpty)
        #expect(held.dropped == 3)
    }

    @Test func whatTheTerminalSendsOnItsOwnIsNoKeyAndBeginsNoQuiet() {
        var held = HeldKeys(quiet: quiet, since: .zero)
        #expect(held.take([.terminalReport, .pasteBegan, .pasteEnded], at: .seconds(1)).isEmpty)
        #expect(held.dropped == 0 && held.lastKeyAt == .zero)
        #expect(held.release(at: quiet, speaking: false) == 0, "nothing dropped: nothing to say")
    }

    @Test func withNothingTypedTheHoldEndsOnceTheOpeningHasBeenHeard() {
        var held = HeldKeys(quiet: quiet, since: .seconds(10))
        #expect(held.deadline(at: .seconds(10), speaking: true) == .seconds(10) + quiet)
        #expect(held.release(at: .seconds(14), speaking: true) == nil)
        #expect(held.release(at: .seconds(14), speaking: false) == 0)
        #expect(held.deadline(at: .seconds(14), speaking: false) == nil)
    }
}
