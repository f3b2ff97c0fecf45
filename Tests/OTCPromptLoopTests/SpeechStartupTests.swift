import Glibc
import OTCPromptCore
import OTCPromptLoop
import Testing

/// The screen first (issue 16): the prompt is drawn and takes keys while the voice still starts, and
/// what was said meanwhile is caught up in one announcement the moment the voice is ready.
@Suite("PromptLoop: a voice that is still starting")
struct SpeechStartupTests {
    @Test func theOpeningIsSaidTheMomentTheVoiceIsReady() {
        let run = LoopRun(
            script: [.voiceReady(after: .milliseconds(20))],
            voice: ScriptedVoice(endsAfter: .milliseconds(20), outcome: .speaks))
        #expect(run.events == [.prompt])
        #expect(run.spoken.first?.text.hasPrefix("Verification code, empty") == true)
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

    @Test func aVoiceThatFallsBackToTextEndsTheDrawnLineSaysWhyOnceAndGoesOnInLines() {
        let notice = "otc-prompt: speech unavailable: the audio server (PulseAudio) did not answer within 2 s"
        let run = LoopRun(
            script: [.bytes("98", after: .milliseconds(5)), .voiceReady(after: .seconds(2)), .bytes("5")],
            voice: ScriptedVoice(endsAfter: .seconds(2), outcome: .fallsBackToText(notice: notice)))
        #expect(run.terminal.written.hasPrefix("Verification code: 98\r\n" + notice + "\r\n"))
        // The text renderer draws nothing more: the announcements are the lines.
        #expect(run.terminal.written.components(separatedBy: notice).count == 2, "said once")
        #expect(!run.terminal.written.hasSuffix("985"))
        #expect(run.texts.count == 2)
        #expect(run.texts.first?.hasPrefix("Verification code, 9 8,") == true)
        #expect(run.texts.last == "5")
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
