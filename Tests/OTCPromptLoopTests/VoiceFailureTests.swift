import OTCPromptCore
import OTCPromptLoop
import OTCPromptTestSupport
import Testing

/// A voice that stops mid-prompt (speech-dispatcher killed, an audio file's reader gone): the loop learns it
/// when it next speaks, and the screen and the announcements become text together: the field is erased, so
/// that a braille display reads, line by line, the notice, then the announcements and nothing else, never a
/// field that no longer tracks what is typed.
@Suite("PromptLoop: a voice that stops mid-prompt")
struct VoiceFailureTests {
    let notice = "otc-prompt: speech-dispatcher stopped answering; announcements shown as text"

    @Test func theFieldIsErasedThenTheNoticeThenOneLinePerAnnouncementWithNoFieldEcho() {
        // Said: the opening, "9"; the voice stops at "8", which is shown instead.
        let run = LoopRun(
            script: [.voiceReady(), .bytes("9"), .bytes("8"), .bytes("5")],
            voice: ScriptedVoice(endsAfter: .zero, outcome: .speaks, failsAt: 3))
        #expect(run.terminal.written == "Verification code: 9\r\u{1B}[J" + notice + "\r\n8\r\n5\r\n")
        #expect(ScreenModel(run.terminal.written).lines.filter { !$0.isEmpty } == [notice, "8", "5"])
        #expect(run.spoken.map(\.text).dropFirst() == ["9"])
    }

    @Test func aFieldChangedAfterTheSwitchIsNotLeftOnScreenAsItWas() {
        let run = LoopRun(
            script: [.voiceReady(), .bytes("1"), .bytes("2"), .bytes("3"), .bytes("4"), .bytes("\u{7F}"), .bytes("5")],
            voice: ScriptedVoice(endsAfter: .zero, outcome: .speaks, failsAt: 6))
        let lines = ScreenModel(run.terminal.written).lines.filter { !$0.isEmpty }
        #expect(lines.first == notice, "\(lines)")
        #expect(!lines.contains { $0.hasPrefix("Verification code") }, "\(lines)")
        #expect(lines.last == "5", "\(lines)")
    }

    @Test func theLastWordsOfACompleteCodeAreShownWhenTheVoiceStopsOnThem() {
        var configuration = PromptConfiguration()
        configuration.length = 2
        let run = LoopRun(
            configuration, script: [.voiceReady(), .bytes("9"), .bytes("8")],
            voice: ScriptedVoice(endsAfter: .zero, outcome: .speaks, failsAt: 3))
        #expect(run.outcome == .submitted("98"))
        let lines = run.terminal.written.components(separatedBy: "\r\n")
        #expect(lines.first == "Verification code: 9\r\u{1B}[J" + notice, "\(lines)")
        #expect(lines.count == 3 && lines[1].hasPrefix("8") && lines[1].contains("complete"), "\(lines)")
    }

    @Test func aVoiceThatNeverFailsLeavesTheScreenToTheField() {
        let run = LoopRun(
            script: [.voiceReady(), .bytes("9"), .bytes("8")],
            voice: ScriptedVoice(endsAfter: .zero, outcome: .speaks))
        #expect(run.terminal.written == "Verification code: 98\r\n")
        #expect(run.spoken.map(\.text).dropFirst() == ["9", "8"])
    }
}
