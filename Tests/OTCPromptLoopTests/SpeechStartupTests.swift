import Glibc
import OTCPromptCore
import OTCPromptLoop
import OTCPromptTestSupport
import Testing

/// The screen first: the prompt is drawn and takes keys while the voice still starts, and
/// what was said meanwhile is caught up in one announcement the moment the voice is ready.
@Suite("PromptLoop: a voice that is still starting")
struct SpeechStartupTests {
    @Test func theOpeningIsSaidTheMomentTheVoiceIsReady() {
        let run = LoopRun(
            script: [.voiceReady(after: .milliseconds(20))],
            voice: ScriptedVoice(endsAfter: .milliseconds(20), outcome: .speaks))
        #expect(run.events == [.prompt])
        #expect(run.spoken.first?.lead?.text == "Verification code. Type 6 digits.")
        #expect(run.terminal.written.hasPrefix("Verification code: "), "drawn before the voice was ready")
    }

    @Test func keysTypedBeforeTheVoiceIsReadyAreDrawnAtOnceAndCaughtUpAsOneAnnouncement() {
        let run = LoopRun(
            script: [.bytes("98", after: .milliseconds(5)), .bytes("5", after: .milliseconds(5)), .voiceReady()],
            voice: ScriptedVoice(endsAfter: .milliseconds(10), outcome: .speaks))
        // Every key drawn in order before the voice had said anything.
        #expect(run.terminal.written.hasPrefix("Verification code: 985"))
        // One announcement, the field as it is now: no stale "empty", no queue of digits.
        #expect(run.spoken.count == 1)
        #expect(run.spoken.first?.event == .prompt)
        #expect(run.spoken.first?.text.hasPrefix("Verification code, 9 8 5") == true, "\(run.texts)")
    }

    @Test func keysAfterTheVoiceIsReadyAreSpokenOneByOne() {
        let run = LoopRun(
            script: [.voiceReady(after: .milliseconds(10)), .bytes("9"), .bytes("8")],
            voice: ScriptedVoice(endsAfter: .milliseconds(10), outcome: .speaks))
        #expect(run.events == [.prompt, .digit, .digit])
        #expect(run.texts.dropFirst() == ["9", "8"])
    }

    @Test func aHelpAskedForBeforeTheVoiceIsReadyIsWhatIsSaid() {
        let run = LoopRun(
            script: [.bytes("9?", after: .milliseconds(5)), .voiceReady()],
            voice: ScriptedVoice(endsAfter: .milliseconds(5), outcome: .speaks))
        #expect(run.events == [.help])
    }

    @Test func aVoiceThatTurnsOutUnavailableErasesTheDrawnLineSaysWhyOnceAndGoesOnInLines() {
        let notice =
            "otc-prompt: speech unavailable: the audio server (PulseAudio) did not answer within 2 s; "
            + "announcements shown as text"
        let run = LoopRun(
            script: [.bytes("98", after: .milliseconds(5)), .voiceReady(after: .seconds(2)), .bytes("5")],
            voice: ScriptedVoice(
                endsAfter: .seconds(2),
                outcome: .unavailable(.audioServerDidNotAnswer(server: "PulseAudio", within: .seconds(2)))))
        // The field erased, the notice in its place, then the announcements in lines: the caught-up opening (its
        // lead, then its keys), the "5".
        #expect(run.terminal.written.hasPrefix("Verification code: 98\r\u{1B}[J" + notice + "\r\n"))
        let lines = ScreenModel(run.terminal.written).lines.filter { !$0.isEmpty }
        #expect(lines.count == 4, "\(lines)")
        #expect(lines.first == notice)
        #expect(lines.dropFirst().first == "Verification code, 9 8. Type 6 digits.", "\(lines)")
        #expect(lines.last == "5", "no field echo after the switch")
        #expect(run.spoken.isEmpty)
    }

    @Test func aVoiceThatCannotStartAsAskedEndsThePromptWithItsReason() {
        let run = LoopRun(
            script: [.bytes("9"), .voiceReady()],
            voice: ScriptedVoice(endsAfter: .milliseconds(100), outcome: .fails("unknown voice 'zz'")))
        #expect(run.outcome == .speechFailed("unknown voice 'zz'"))
        #expect(run.terminal.calls.last == "restore")
        #expect(run.spoken.isEmpty)
    }

    @Test(arguments: [SIGTERM, SIGINT, SIGHUP])
    func aSignalWhileTheVoiceStartsEndsThePromptAtOnce(signal: Int32) {
        let run = LoopRun(
            script: [.bytes("98"), .signal(signal)],
            voice: ScriptedVoice(endsAfter: .seconds(60), outcome: .speaks))
        #expect(run.outcome == .signalled(signal))
        #expect(run.terminal.calls.last == "restore")
        #expect(run.spoken.isEmpty)
    }
}

extension LoopRun {
    var texts: [String] { spoken.map(\.text) }
}
