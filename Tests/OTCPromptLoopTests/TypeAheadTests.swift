import OTCPromptCore
import OTCPromptLoop
import OTCPromptTestSupport
import Testing

/// `TypeAheadRule`: a question takes only keys typed after it appeared, past the grace period.
@Suite struct TypeAheadTests {
    private func run(
        _ typeAhead: TypeAheadRule, _ script: [ScriptedTerminal.Step]
    ) -> (outcome: PromptOutcome, terminal: ScriptedTerminal) {
        let clock = ManualClock()
        let terminal = ScriptedTerminal(clock: clock, script)
        let system = PromptSystem(
            terminal: terminal, now: { clock.now }, startCheck: { _, _ in fatalError("no check") },
            lockInMemory: { _ in true })
        var loop = PromptLoop(
            session: ConfirmSession(question: "Allow use of key?"), renderer: LineRenderer(), system: system,
            speech: RecordingSpeechBackend(), escapeDelay: .milliseconds(50),
            capabilities: TerminalCapabilities(isDumb: false, colorDepth: .none, isUTF8: true), check: nil,
            typeAhead: typeAhead)
        return (loop.run(), terminal)
    }

    @Test func queuedInputIsDiscardedAndKeysWithinTheGraceAreIgnored() {
        let (outcome, terminal) = run(
            .discarded(grace: ConfirmSession.grace),
            [.bytes("yes\r", after: .milliseconds(100)), .bytes("no\r", after: .milliseconds(250))])
        #expect(outcome == .confirmed(false), "the first answer came 100 ms after the question: a leftover")
        #expect(terminal.calls.prefix(2) == ["raw", "discard"] || terminal.calls.contains("discard"))
    }

    @Test func aKeyAtTheEndOfTheGraceCounts() {
        let (outcome, _) = run(.discarded(grace: ConfirmSession.grace), [.bytes("yes\r", after: .milliseconds(300))])
        #expect(outcome == .confirmed(true))
    }

    @Test(arguments: ["\u{3}", "\u{1B}"])
    func controlCAndEscapeAlwaysCount(key: String) {
        let (outcome, _) = run(
            .discarded(grace: ConfirmSession.grace), [.bytes(key, after: .milliseconds(10)), .timeout])
        #expect(outcome == .confirmed(false))
    }

    @Test func keptTypeAheadIsNeitherDiscardedNorDelayed() {
        let (outcome, terminal) = run(.kept, [.bytes("yes\r", after: .milliseconds(10))])
        #expect(outcome == .confirmed(true))
        #expect(!terminal.calls.contains("discard"))
    }
}
