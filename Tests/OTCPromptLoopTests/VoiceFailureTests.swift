import OTCPromptCore
import OTCPromptLoop
import Testing

/// A voice that stops mid-prompt (speech-dispatcher killed, an audio file's reader gone): the loop learns it
/// when it next speaks, and the screen and the announcements become text together, so that a braille
/// display reads, line by line, the field as it was, the notice, then the announcements and nothing else.
@Suite("PromptLoop: a voice that stops mid-prompt")
struct VoiceFailureTests {
    let notice = "otc-prompt: speech-dispatcher stopped answering; announcements shown as text"

    @Test func theFieldsLineIsEndedThenTheNoticeThenOneLinePerAnnouncementWithNoFieldEcho() {
        // Said: the opening, "9"; the voice stops at "8", which is shown instead.
        let run = LoopRun(
            script: [.voiceReady(), .bytes("9"), .bytes("8"), .bytes("5")],
            voice: ScriptedVoice(endsAfter: .zero, outcome: .speaks, failsAt: 3))
        #expect(run.terminal.written == "Verification code: 98\r\n" + notice + "\r\n8\r\n5\r\n")
        #expect(run.spoken.map(\.text).dropFirst() == ["9"])
    }

    @Test func theLastWordsOfACompleteCodeAreShownWhenTheVoiceStopsOnThem() {
        var configuration = PromptConfiguration()
        configuration.length = 2
        let run = LoopRun(
            configuration, script: [.voiceReady(), .bytes("9"), .bytes("8")],
            voice: ScriptedVoice(endsAfter: .zero, outcome: .speaks, failsAt: 3))
        #expect(run.outcome == .submitted("98"))
        let lines = run.terminal.written.components(separatedBy: "\r\n")
        #expect(lines.prefix(2) == ["Verification code: 98", notice], "\(lines)")
        #expect(lines.count == 4 && lines[2].hasPrefix("8") && lines[2].contains("complete"), "\(lines)")
    }

    @Test func aVoiceThatNeverFailsLeavesTheScreenToTheField() {
        let run = LoopRun(
            script: [.voiceReady(), .bytes("9"), .bytes("8")],
            voice: ScriptedVoice(endsAfter: .zero, outcome: .speaks))
        #expect(run.terminal.written == "Verification code: 98\r\n")
        #expect(run.spoken.map(\.text).dropFirst() == ["9", "8"])
    }
}
