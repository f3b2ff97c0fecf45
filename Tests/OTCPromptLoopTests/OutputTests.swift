import Glibc
import OTCPromptCore
import OTCPromptLoop
import OTCPromptTestSupport
import Testing

/// The loop's outputs beside the screen and the voice (a braille display): shown every change of the session's
/// view, their keys taken as the terminal's, given back before a stop and at the end.
@Suite("PromptLoop: outputs")
struct OutputTests {
    /// Runs `session` on `script` with `output`; returns the outcome and the terminal.
    private func run<Session: InteractiveSession>(
        _ session: Session, _ script: [ScriptedTerminal.Step], output: RecordingSessionOutput,
        typeAhead: TypeAheadRule = .kept, linesAbove: [String] = [], speech: RecordingSpeechBackend = .init()
    ) -> (outcome: PromptOutcome, terminal: ScriptedTerminal, order: [(call: String, terminalCalls: Int)]) {
        let clock = ManualClock()
        let terminal = ScriptedTerminal(clock: clock, script)
        let system = PromptSystem(
            terminal: terminal, now: { clock.now }, startCheck: { _, _ in fatalError("no check") },
            lockInMemory: { _ in true })
        var loop = PromptLoop(
            session: session, renderer: LineRenderer(), system: system, speech: speech,
            escapeDelay: .milliseconds(50),
            capabilities: TerminalCapabilities(isDumb: false, colorDepth: .none, isUTF8: true), check: nil,
            typeAhead: typeAhead)
        loop.outputs.add(output)
        loop.outputs.linesAbove = linesAbove
        // Each of the output's calls with how many calls the terminal had had by then.
        var order: [(call: String, terminalCalls: Int)] = []
        output.onCall = { order.append(($0, terminal.calls.count)) }
        let outcome = loop.run()
        return (outcome, terminal, order)
    }

    private let code = PromptConfiguration(label: "Code", length: 4)

    @Test func everyChangeOfTheViewIsShownOnceAndTheOutputIsGivenBackAtTheEnd() {
        let output = RecordingSessionOutput()
        let result = run(
            PromptSession(configuration: code), [.bytes("1"), .bytes("2"), .bytes("\u{12}"), .bytes("34")],
            output: output, linesAbove: ["For disk sda2."])
        #expect(result.outcome == .submitted(SecretBytes(copying: "1234")))
        #expect(
            output.presented.map(\.field)
                == [[], ["1"], ["1", "2"], ["1", "2"], ["1", "2", "3"], ["1", "2", "3", "4"]].map {
                    SessionView.Field.characters($0)
                })
        #expect(output.presented.first?.news == "For disk sda2." && output.presented[1].news == nil)
        #expect(output.presented[3].readBack == .groups([["1", "2"]]))
        #expect(output.calls.last == "release")
    }

    @Test func anOutputAddedBesideTheScreenAndTheVoiceHearsWhatTheVoiceHearsAndTheEnd() {
        let output = RecordingSessionOutput()
        let voice = RecordingSpeechBackend()
        let result = run(
            PromptSession(configuration: code), [.bytes("12"), .bytes("\u{12}"), .bytes("x"), .bytes("34")],
            output: output, speech: voice)
        #expect(result.outcome == .submitted(SecretBytes(copying: "1234")))
        #expect(output.said == voice.spoken)
        #expect(output.said.map(\.event).contains(.readback) && output.said.map(\.event).contains(.reject))
        #expect(output.calls.suffix(2) == ["end", "release"])
    }

    @Test func keysFromTheOutputActOnTheFieldAsTheTerminalsDo() {
        let output = RecordingSessionOutput(keys: [
            [.character("9"), .character("8")], [.backspace], [.character("7")],
        ])
        let result = run(
            PromptSession(configuration: code),
            [.checkReady(), .checkReady(), .checkReady(), .bytes("65")], output: output)
        #expect(result.outcome == .submitted(SecretBytes(copying: "9765")))
    }

    @Test func escapeFromTheOutputCancelsAtOnceWithoutTheEscDelay() {
        let output = RecordingSessionOutput(keys: [[.escape]])
        let result = run(PromptSession(configuration: code), [.checkReady()], output: output)
        #expect(result.outcome == .cancelled)
        #expect(result.terminal.timeouts.count == 1)
    }

    @Test func ctrlZGivesTheOutputBackBeforeTheStopAndShowsItAgainAfter() throws {
        let output = RecordingSessionOutput()
        let result = run(
            PromptSession(configuration: code), [.bytes("1"), .bytes("\u{1A}"), .bytes("234")], output: output)
        #expect(result.outcome == .submitted(SecretBytes(copying: "1234")))
        let stop = try #require(result.terminal.calls.firstIndex(of: "stop"))
        let release = try #require(result.order.firstIndex { $0.call == "release" })
        #expect(result.order[release].terminalCalls == stop, "given back just before the stop")
        let shownAgain = try #require(result.order[(release + 1)...].first { $0.call == "present" })
        #expect(shownAgain.terminalCalls > stop)
    }

    @Test func withinAQuestionsGraceAKeyFromTheOutputIsNoAnswer() {
        let output = RecordingSessionOutput(keys: [
            [.character("y"), .submit], [.character("n"), .character("o"), .submit],
        ])
        let result = run(
            ConfirmSession(question: "Allow?"),
            [.checkReady(after: .milliseconds(10)), .checkReady(after: .seconds(1))],
            output: output, typeAhead: .discarded(grace: ConfirmSession.grace))
        #expect(result.outcome == .confirmed(false))
    }

    @Test func aMaskedFieldReachesTheOutputAsItsCountAlone() {
        let output = RecordingSessionOutput()
        _ = run(
            PromptSession(configuration: .freeText(label: "Password", mask: true)), [.bytes("hunter2"), .bytes("\r")],
            output: output)
        #expect(output.presented.allSatisfy { if case .masked? = $0.field { true } else { false } })
        #expect(output.presented.last?.field == .masked(count: 7))
    }
}
