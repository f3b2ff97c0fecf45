import Glibc
import OTCPromptCore
import OTCPromptLoop
import OTCPromptTestSupport
import Testing

/// A prompt never outlives the caller waiting for its answer, and Ctrl-Z only stops where the stop
/// can be undone.
@Suite("PromptLoop: the caller's hang-up and a Ctrl-Z that cannot stop")
struct CallerAndSuspendTests {
    /// gpg-agent's pipe, as the pinentry hands it to the loop.
    static let agentPipe: [Int32] = [0, 1]

    /// Runs `session` on `script` with gpg-agent's pipe as the caller.
    private func run<Session: InteractiveSession>(
        _ session: Session, _ script: [ScriptedTerminal.Step], suspension: Suspension = .refusedWhileCallerWaits
    ) -> (outcome: PromptOutcome, terminal: ScriptedTerminal, spoken: [Announcement]) {
        let clock = ManualClock()
        let terminal = ScriptedTerminal(clock: clock, script)
        let speech = RecordingSpeechBackend()
        let system = PromptSystem(
            terminal: terminal, now: { clock.now }, startCheck: { _, _ in fatalError("no check") },
            lockInMemory: { _ in true }, caller: Self.agentPipe, suspension: suspension)
        var loop = PromptLoop(
            session: session, renderer: LineRenderer(), system: system, speech: speech,
            escapeDelay: .milliseconds(50),
            capabilities: TerminalCapabilities(isDumb: false, colorDepth: .none, isUTF8: true),
            check: nil)
        return (loop.run(), terminal, speech.spoken)
    }

    @Test func everyWaitOfAPinentryFieldWatchesTheCaller() {
        let run = LoopRun(script: [.bytes("sec"), .bytes("\u{1B}"), .timeout], caller: Self.agentPipe)
        #expect(run.terminal.callerWatched.allSatisfy { $0 == Self.agentPipe })
        #expect(run.terminal.callerWatched.count >= 2)
    }

    @Test func theCallersHangUpMidFieldEndsItAtOnceWithTheTerminalRestoredAndNothingMoreRead() {
        let run = LoopRun(
            PromptConfiguration.freeText(label: "Passphrase", mask: true),
            script: [.bytes("secr"), .callerGone(after: .milliseconds(20)), .bytes("ls -la\r")],
            caller: Self.agentPipe)
        #expect(run.outcome == .callerGone)
        #expect(run.terminal.calls.last == "restore")
        // The line typed after the hang-up was never read: one wait for the typing, one for the hang-up.
        #expect(run.terminal.timeouts.count == 2)
        #expect(!run.events.contains(.complete))
    }

    @Test(arguments: [false, true])
    func theCallersHangUpEndsAQuestionOrANotice(notice: Bool) {
        let steps: [ScriptedTerminal.Step] = [
            .callerGone(after: .milliseconds(30)), .bytes("yes\r", after: .seconds(1)),
        ]
        let result =
            notice
            ? run(NoticeSession(message: "Please insert the card"), steps)
            : run(ConfirmSession(question: "Allow use of key?"), steps)
        #expect(result.outcome == .callerGone)
        #expect(result.terminal.calls.last == "restore")
        #expect(result.terminal.timeouts.count == 1)
    }

    @Test func ctrlZInAPinentryIsRefusedWithAWordAndTheFieldKept() {
        let run = LoopRun(
            PromptConfiguration.freeText(label: "Passphrase", mask: true),
            script: [.bytes("sec"), .bytes("\u{1A}"), .bytes("ret\r")], caller: Self.agentPipe,
            suspension: .refusedWhileCallerWaits)
        #expect(run.outcome == .submitted("secret"))
        #expect(!run.terminal.calls.contains("stop"))
        #expect(run.terminal.calls.filter { $0 == "raw" }.count == 1, "never left raw mode")
        let notices = run.spoken.filter { $0.event == .notice }.map(\.text)
        #expect(notices == [Wording(language: .en).cannotSuspend(whileCallerWaits: true)])
        #expect(run.events.filter { $0 == .prompt }.count == 1, "the prompt is not announced again")
        #expect(run.terminal.written.contains("gpg-agent"))
    }

    @Test func ctrlZWhereNothingCouldResumeTheProcessSaysSoAndKeepsWhatWasTyped() {
        let run = LoopRun(
            script: [.bytes("985"), .bytes("\u{1A}"), .bytes("391")], canStopProcess: false)
        #expect(run.outcome == .submitted("985391"))
        #expect(!run.terminal.calls.contains("stop"))
        #expect(run.terminal.calls.filter { $0 != "write" } == ["raw", "restore"])
        #expect(
            run.spoken.filter { $0.event == .notice }.map(\.text) == [
                Wording(language: .en).cannotSuspend(whileCallerWaits: false)
            ])
        #expect(run.events.filter { $0 == .prompt }.count == 1)
    }

    @Test func aSIGTSTPWhereNothingCouldResumeTheProcessIsRefusedTheSameWay() {
        let run = LoopRun(script: [.bytes("985"), .signal(SIGTSTP), .bytes("391")], canStopProcess: false)
        #expect(run.outcome == .submitted("985391"))
        #expect(!run.terminal.calls.contains("stop"))
        #expect(run.events.filter { $0 == .notice }.count == 1)
    }

    /// Stopped while its voice still starts, the prompt would find the voice's deadlines passed when continued
    /// (and go on in text): the voice is let start first, then the process stops, and is said again once back.
    @Test func ctrlZWhileTheVoiceStartsLetsItStartFirst() {
        let run = LoopRun(
            script: [.bytes("\u{1A}", after: .milliseconds(1)), .signal(SIGCONT), .bytes("985391")],
            voice: ScriptedVoice(endsAfter: .milliseconds(40), outcome: .speaks))
        #expect(run.outcome == .submitted("985391"))
        let calls = run.terminal.calls
        #expect(
            calls.firstIndex(of: "await voice").map { $0 < (calls.firstIndex(of: "stop") ?? 0) } == true, "\(calls)")
        #expect(run.events.filter { $0 == .prompt }.count == 2, "said once started, and again once back: \(run.events)")
    }

    @Test func ctrlZInAJobStillStopsAndResumes() {
        let run = LoopRun(script: [.bytes("98"), .bytes("\u{1A}"), .signal(SIGCONT), .bytes("5391")])
        #expect(run.terminal.calls.contains("stop"))
        #expect(!run.events.contains(.notice))
    }

    @Test(arguments: Language.allCases)
    func theRefusalIsWordedInEveryLanguage(language: Language) {
        let wording = Wording(language: language)
        let caller = wording.cannotSuspend(whileCallerWaits: true)
        let here = wording.cannotSuspend(whileCallerWaits: false)
        #expect(!caller.isEmpty && !here.isEmpty && caller != here)
        #expect(caller.contains("gpg-agent"))
    }
}
