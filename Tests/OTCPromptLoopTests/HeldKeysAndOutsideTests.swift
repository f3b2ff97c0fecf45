import OTCPromptCore
import OTCPromptLoop
import OTCPromptTestSupport
import Testing

/// The password agent's field in the loop: keys held after a switch the user may not have heard
/// (`TypeAheadRule.heldUntilHeard`), and news from outside said without taking the field's keys.
@Suite struct HeldKeysAndOutsideTests {
    /// A voice that speaks until a set time on the manual clock.
    final class TimedVoice: SpeechBackend {
        let clock: ManualClock
        var speaksUntil: Duration
        private(set) var spoken: [Announcement] = []

        init(clock: ManualClock, speaksUntil: Duration) {
            self.clock = clock
            self.speaksUntil = speaksUntil
        }

        func speak(_ announcement: Announcement) { spoken.append(announcement) }
        func finish(timeout: Duration) {}
        var isSpeaking: Bool { clock.now < speaksUntil }
    }

    /// News from outside, handed out when the scripted terminal says the outside is ready.
    final class ScriptedOutside: OutsideEvents {
        var pending: [[String]]
        var waitingNow: String?
        init(_ news: [[String]], waiting: String? = nil) {
            pending = news
            waitingNow = waiting
        }
        var descriptor: Int32 { 77 }
        /// Whether the loop said the opening had been heard, each time it asked.
        var heard: [Bool] = []
        func news(openingHeard: Bool) -> [String] {
            heard.append(openingHeard)
            return pending.isEmpty || !openingHeard ? [] : pending.removeFirst()
        }
        var keepsNews: Bool { !pending.isEmpty }
        func waiting() -> String? { waitingNow }
    }

    struct Run {
        let outcome: PromptOutcome
        let spoken: [Announcement]
        let terminal: ScriptedTerminal
    }

    private func run(
        _ typeAhead: TypeAheadRule, label: String = "Passphrase for B", news: [String] = [],
        speaksFor: Duration = .zero, outside: ScriptedOutside? = nil,
        _ script: [ScriptedTerminal.Step]
    ) -> Run {
        let clock = ManualClock()
        let terminal = ScriptedTerminal(clock: clock, script)
        let system = PromptSystem(
            terminal: terminal, now: { clock.now }, startCheck: { _, _ in fatalError("no check") },
            lockInMemory: { _ in true }, outside: outside)
        let voice = TimedVoice(clock: clock, speaksUntil: clock.now + speaksFor)
        var loop = PromptLoop(
            session: PromptSession(configuration: Self.configuration(label: label, news: news)),
            renderer: LineRenderer(), system: system, speech: voice, escapeDelay: .milliseconds(50),
            capabilities: TerminalCapabilities(isDumb: false, colorDepth: .none, isUTF8: true), check: nil,
            typeAhead: typeAhead)
        return Run(outcome: loop.run(), spoken: voice.spoken, terminal: terminal)
    }

    private func submitted(_ outcome: PromptOutcome) -> String? {
        guard case .submitted(let secret) = outcome else { return nil }
        return secret.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// The attack: the user types A's password a key every 0.45 s; A ends and B is asked at once. None of A's keys
    /// reach B, the drop is said once they stop, and what they type then is B's.
    @Test func aListenersKeysAfterASwitchNeverReachTheNextRequest() {
        var script: [ScriptedTerminal.Step] = "orse battery".map { .bytes(String($0), after: .milliseconds(450)) }
        script += [.bytes("\r", after: .milliseconds(450)), .timeout, .bytes("B's\r", after: .seconds(1))]
        let result = run(.heldUntilHeard(quiet: TypeAheadRule.switchQuiet), speaksFor: .seconds(3), script)
        #expect(submitted(result.outcome) == "B's")
        let dropped = result.spoken.filter { $0.event == .notice }.map(\.text)
        #expect(dropped == ["13 keys were dropped."])
    }

    @Test func escapeMeantForTheRequestThatEndedIsHeldNotACancel() {
        let result = run(
            .heldUntilHeard(quiet: TypeAheadRule.switchQuiet),
            [.bytes("\u{1B}", after: .milliseconds(150)), .timeout, .timeout, .bytes("ok\r", after: .seconds(2))])
        #expect(submitted(result.outcome) == "ok")
        #expect(result.spoken.contains { $0.text == "1 key was dropped." })
    }

    @Test func keysCountOnlyOnceTheFirstSentenceHasBeenHeard() {
        // Quiet for long enough after the first key, but the first sentence is still being said: still held.
        let result = run(
            .heldUntilHeard(quiet: TypeAheadRule.switchQuiet), speaksFor: .seconds(10),
            [
                .bytes("x", after: .milliseconds(100)), .timeout, .bytes("early\r", after: .milliseconds(50)), .timeout,
                .bytes("late\r", after: .seconds(1)),
            ])
        #expect(submitted(result.outcome) == "late")
        #expect(result.spoken.contains { $0.text == "7 keys were dropped." })
    }

    @Test func withNothingTypedNothingIsSaidAndTheFieldTakesKeysOnceHeard() {
        let result = run(
            .heldUntilHeard(quiet: TypeAheadRule.switchQuiet), speaksFor: TypeAheadRule.switchQuiet,
            [.timeout, .bytes("pw\r", after: .seconds(1))])
        #expect(submitted(result.outcome) == "pw")
        #expect(!result.spoken.contains { $0.event == .notice })
    }

    /// A request arriving while the field is open is said at once and shown above the field; the field keeps what
    /// was typed before and takes what is typed after.
    @Test func newsFromOutsideIsSaidWithoutTakingTheFieldsKeys() {
        let outside = ScriptedOutside([["New request waiting: disk sda2."]])
        let result = run(
            .kept, outside: outside,
            [.bytes("ab"), Self.outsideReady, .bytes("c\r")])
        #expect(submitted(result.outcome) == "abc")
        #expect(result.spoken.contains { $0.event == .notice && $0.text == "New request waiting: disk sda2." })
        #expect(result.terminal.written.contains("New request waiting: disk sda2."))
    }

    /// News that comes while the opening is being said is kept until it has been heard: it never cuts the question.
    @Test func newsWaitsUntilTheOpeningHasBeenHeard() {
        let outside = ScriptedOutside([["1 more waiting: disk sda2."]])
        let result = run(
            .kept, speaksFor: .seconds(2), outside: outside,
            [Self.outsideReady, .bytes("a", after: .seconds(3)), .timeout, .bytes("b\r")])
        #expect(submitted(result.outcome) == "ab")
        #expect(outside.heard.first == false && outside.heard.last == true, "\(outside.heard)")
        #expect(result.spoken.contains { $0.text == "1 more waiting: disk sda2." }, "\(result.spoken.map(\.text))")
    }

    /// A readback with nothing typed is the question and what waits now, each sentence ended once, never
    /// "Passphrase for B:." nor the news the opening came with.
    @Test func aReadbackEndsTheQuestionOnceBeforeWhatWaits() {
        let outside = ScriptedOutside([], waiting: "1 more waiting: disk sda2.")
        let result = run(
            .kept, label: "Passphrase for B:", news: ["Request withdrawn."], outside: outside,
            [.bytes("\u{12}"), .bytes("\u{3}")])
        let readback = result.spoken.last { $0.text.contains("more waiting") }?.text ?? ""
        #expect(readback.hasPrefix("Passphrase for B. "), "\(readback)")
        #expect(!readback.contains(":.") && !readback.contains("withdrawn"), "\(readback)")
    }

    /// Esc declines before anything is said of it: the caller waiting for the answer is told first.
    @Test func escDeclinesBeforeCancelledIsSaid() {
        let clock = ManualClock()
        let terminal = ScriptedTerminal(clock: clock, [.bytes("ab"), .bytes("\u{1B}"), .timeout])
        let system = PromptSystem(
            terminal: terminal, now: { clock.now }, startCheck: { _, _ in fatalError("no check") },
            lockInMemory: { _ in true })
        let voice = TimedVoice(clock: clock, speaksUntil: clock.now)
        var loop = PromptLoop(
            session: PromptSession(configuration: .freeText(label: "Passphrase for B", mask: true)),
            renderer: LineRenderer(), system: system, speech: voice, escapeDelay: .milliseconds(50),
            capabilities: TerminalCapabilities(isDumb: false, colorDepth: .none, isUTF8: true), check: nil)
        var saidWhenDeclined: [String]?
        loop.declines = { saidWhenDeclined = voice.spoken.map(\.text) }
        #expect(loop.run() == .cancelled)
        #expect(saidWhenDeclined?.contains { $0.lowercased().contains("cancel") } == false, "\(saidWhenDeclined ?? [])")
        #expect(voice.spoken.contains { $0.text.lowercased().contains("cancel") }, "\(voice.spoken.map(\.text))")
    }

    @Test func aReadbackSaysWhatWaitsOutsideCountedThen() {
        let outside = ScriptedOutside([], waiting: "2 more waiting: disk sda2, Backup.")
        let result = run(.kept, outside: outside, [.bytes("\u{12}"), .bytes("\u{3}")])
        let readback = result.spoken.first { $0.text.contains("more waiting") }
        #expect(readback?.text.hasSuffix("2 more waiting: disk sda2, Backup.") == true, "\(result.spoken.map(\.text))")
        outside.waitingNow = "Nothing else waiting."
        let typed = run(.kept, outside: outside, [.bytes("?"), .bytes("\u{3}")])
        #expect(!typed.spoken.contains { $0.text.contains("waiting") }, "in a password, ? is typed")
    }

    private static func configuration(label: String, news: [String]) -> PromptConfiguration {
        var configuration = PromptConfiguration.freeText(label: label, mask: true)
        configuration.news = news
        configuration.newsSaidOnce = news.count
        configuration.details = ["For disk sda3."]
        return configuration
    }

    static var outsideReady: ScriptedTerminal.Step { .init(input: .otherReady, after: .milliseconds(100)) }
}
