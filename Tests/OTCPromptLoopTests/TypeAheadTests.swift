import OTCPromptCore
import OTCPromptLoop
import OTCPromptTestSupport
import Testing

/// `TypeAheadRule`: a question takes only lines begun after it appeared, past the grace period.
@Suite struct TypeAheadTests {
    private func run(
        _ typeAhead: TypeAheadRule, _ script: [ScriptedTerminal.Step], dumb: Bool = false
    ) -> (outcome: PromptOutcome, terminal: ScriptedTerminal) {
        let (outcome, terminal, _) = TypeAheadRun.run(typeAhead, script, dumb: dumb)
        return (outcome, terminal)
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
        #expect(outcome == .cancelled)
    }

    @Test func keptTypeAheadIsNeitherDiscardedNorDelayed() {
        let (outcome, terminal) = run(.kept, [.bytes("yes\r", after: .milliseconds(10))])
        #expect(outcome == .confirmed(true))
        #expect(!terminal.calls.contains("discard"))
    }

    /// On a dumb terminal a burst is an unmarked paste, held until the line is quiet: one that arrived
    /// within the grace is still a leftover when it is complete after it, and so is its rest.
    @Test(arguments: [false, true])
    func aLeftoverHeldOrSplitPastTheGraceIsStillIgnored(dumb: Bool) {
        let held = run(
            .discarded(grace: ConfirmSession.grace),
            [.bytes("yes", after: .milliseconds(250)), .bytes("\r", after: .milliseconds(150)), .timeout], dumb: dumb)
        #expect(held.outcome != .confirmed(true), "\(held.outcome)")
        let split = run(
            .discarded(grace: ConfirmSession.grace),
            [.bytes("ye", after: .milliseconds(250)), .bytes("s\r", after: .milliseconds(60)), .timeout], dumb: dumb)
        #expect(split.outcome != .confirmed(true), "\(split.outcome)")
        // A line begun as a leftover goes whole, up to its Enter, however long after; the next line counts.
        let answered = TypeAheadRun.run(
            .discarded(grace: ConfirmSession.grace),
            [
                .bytes("ye", after: .milliseconds(250)), .bytes("s", after: .milliseconds(60)),
                .bytes("y", after: .milliseconds(400)), .bytes("e", after: .milliseconds(150)),
                .bytes("s", after: .milliseconds(150)), .bytes("\r", after: .milliseconds(150)),
                .bytes("y", after: .milliseconds(600)), .bytes("e", after: .milliseconds(150)),
                .bytes("s", after: .milliseconds(150)), .bytes("\r", after: .milliseconds(150)),
            ], dumb: dumb)
        #expect(answered.outcome == .confirmed(true), "\(answered.outcome)")
        #expect(answered.terminal.deliveredAt.count == 10, "the first yes⏎ after the grace was still the leftover's")
        #expect(answered.spoken.contains { $0.text == "Typed too early, ignored. Type again." })
    }

    /// "ye" typed ahead and "s⏎" after the grace was the Portuguese "sim" once: now the whole line goes.
    @Test func aLineBegunWithinTheGraceIsDroppedUpToItsEnter() {
        let (outcome, terminal, spoken) = TypeAheadRun.run(
            .discarded(grace: ConfirmSession.grace),
            [
                .bytes("y", after: .milliseconds(200)), .bytes("e", after: .milliseconds(90)),
                .bytes("s", after: .milliseconds(300)), .bytes("\r", after: .milliseconds(100)), .timeout,
            ])
        #expect(outcome == .terminalClosed, "nothing answered")
        #expect(terminal.deliveredAt.count == 4, "read to the end: nothing answered")
        #expect(spoken.last?.text == "Typed too early, ignored. Type again.")
        let escape = TypeAheadRun.run(
            .discarded(grace: ConfirmSession.grace),
            [.bytes("y", after: .milliseconds(200)), .bytes("\u{1B}", after: .milliseconds(300)), .timeout])
        #expect(escape.outcome == .cancelled, "Esc counts within a leftover line")
    }

    /// Tab, an arrow, Ctrl-R, Ctrl-T, Ctrl-L, a function key within the grace were once no line begun:
    /// the "yes⏎" that followed them, past the grace, answered.
    @Test(arguments: ["\t", "\u{1B}[A", "\u{12}", "\u{14}", "\u{0C}", "\u{1B}OP", "\u{1B}[15~", "\u{1A}"])
    func aKeyThatTypesNothingWithinTheGraceBeginsALeftoverLine(key: String) {
        for (at, gap) in [(100, 500), (250, 150)] {
            let (outcome, _, spoken) = TypeAheadRun.run(
                .discarded(grace: ConfirmSession.grace),
                [.bytes(key, after: .milliseconds(at)), .bytes("yes\r", after: .milliseconds(gap)), .timeout])
            #expect(outcome != .confirmed(true), "\(key.debugDescription) at \(at) ms: \(outcome)")
            #expect(spoken.contains { $0.text == "Typed too early, ignored. Type again." })
        }
    }

    /// What the terminal sends on its own is no key: a focus report or a reply begins no line.
    @Test(arguments: ["\u{1B}[I", "\u{1B}[O", "\u{1B}[?62;22c", "\u{1B}]11;rgb:1/2/3\u{07}", "\u{1B}[24;80R"])
    func aTerminalReportWithinTheGraceBeginsNoLine(report: String) {
        let (outcome, _, spoken) = TypeAheadRun.run(
            .discarded(grace: ConfirmSession.grace),
            [.bytes(report, after: .milliseconds(100)), .bytes("yes\r", after: .milliseconds(500))])
        #expect(outcome == .confirmed(true), "\(report.debugDescription)")
        #expect(!spoken.contains { $0.text == "Typed too early, ignored. Type again." })
    }

    @Test func aTabWithinAWordTypedAfterTheGraceChangesNothing() {
        let (outcome, _) = run(
            .discarded(grace: ConfirmSession.grace),
            [
                .bytes("ye", after: .milliseconds(600)), .bytes("\t", after: .milliseconds(100)),
                .bytes("s\r", after: .milliseconds(100)),
            ])
        #expect(outcome == .confirmed(true))
    }
}

/// One question run on a scripted terminal and a manual clock.
enum TypeAheadRun {
    static func run(
        _ typeAhead: TypeAheadRule, _ script: [ScriptedTerminal.Step], dumb: Bool = false, language: Language = .en
    ) -> (outcome: PromptOutcome, terminal: ScriptedTerminal, spoken: [Announcement]) {
        let clock = ManualClock()
        let terminal = ScriptedTerminal(clock: clock, script)
        let system = PromptSystem(
            terminal: terminal, now: { clock.now }, startCheck: { _, _ in fatalError("no check") },
            lockInMemory: { _ in true })
        let speech = RecordingSpeechBackend()
        var loop = PromptLoop(
            session: ConfirmSession(question: "Allow use of key?", language: language), renderer: LineRenderer(),
            system: system, speech: speech, escapeDelay: .milliseconds(50),
            capabilities: TerminalCapabilities(isDumb: dumb, colorDepth: .none, isUTF8: true), check: nil,
            typeAhead: typeAhead)
        return (loop.run(), terminal, speech.spoken)
    }
}
