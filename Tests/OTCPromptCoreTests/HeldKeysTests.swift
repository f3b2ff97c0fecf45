import Testing

@testable import OTCPromptCore

/// `TypeAheadRule.heldUntilHeard`: after a switch the user may not have heard, every key is dropped until the
/// opening's first sentence has been heard and the terminal has been quiet; then how many were dropped is said.
@Suite struct HeldKeysTests {
    let quiet = Duration.milliseconds(1500)

    /// A listener typing the last request's password a key every 0.45 s: none of it reaches the new one, however
    /// long they go on, and the hold ends only once they stop.
    @Test func aListenersPaceNeverGetsThrough() {
        var held = HeldKeys(quiet: quiet, since: .zero)
        var time = Duration.zero
        for _ in 0..<12 {
            time += .milliseconds(450)
            #expect(held.take([.character("x")], at: time).isEmpty)
            #expect(held.release(at: time, speaking: true) == nil)
        }
        time += .milliseconds(450)
        #expect(held.take([.submit], at: time).isEmpty)
        #expect(held.release(at: time + .milliseconds(1400), speaking: true) == nil)
        // Past the first sentence, the voice may go on with the details: what counts is that it was heard.
        #expect(held.deadline(at: time + .milliseconds(1400), speaking: true) == time + quiet)
        #expect(held.release(at: time + quiet, speaking: true) == 13)
        #expect(!held.isHolding)
        #expect(held.take([.character("y")], at: time + .seconds(5)) == [.character("y")])
    }

    /// Quiet soon after the switch, but the first sentence is still playing: held until it has been heard.
    @Test func theFirstSentenceIsHeardBeforeAnyKeyCounts() {
        var held = HeldKeys(quiet: quiet, since: .zero)
        #expect(held.take([.character("x")], at: .milliseconds(100)).isEmpty)
        #expect(held.release(at: .seconds(2), speaking: true) == nil)
        #expect(held.deadline(at: .seconds(2), speaking: true) == .seconds(2) + HeldKeys.speakingRecheck)
        #expect(held.deadline(at: .milliseconds(2950), speaking: true) == HeldKeys.firstSentence)
        #expect(held.release(at: .milliseconds(2500), speaking: false) == 1, "a short opening ended sooner")
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

    @Test func withNothingTypedTheHoldEndsOnceTheFirstSentenceHasBeenHeard() {
        var held = HeldKeys(quiet: quiet, since: .seconds(10))
        #expect(held.deadline(at: .seconds(10), speaking: true) == .seconds(10) + quiet)
        #expect(held.release(at: .seconds(12), speaking: true) == nil)
        #expect(held.release(at: .seconds(13), speaking: true) == 0)
        #expect(held.deadline(at: .seconds(14), speaking: false) == nil)
    }
}
