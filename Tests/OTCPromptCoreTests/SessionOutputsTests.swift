import OTCPromptCore
import OTCPromptTestSupport
import Testing

/// The one interface every output takes: the same effects in the same order to each, the view only when it changed
/// and only as a view, and the switch to text lines made once for all of them.
@Suite struct SessionOutputsTests {
    /// Each output's calls, in the order they were made across all of them.
    final class Order {
        var calls: [String] = []
    }

    private func outputs(
        _ count: Int, fallback: SpeechFallback? = nil, order: Order
    ) -> ([RecordingSessionOutput], SessionOutputs) {
        let recorders = (0..<count).map { _ in RecordingSessionOutput() }
        for (index, recorder) in recorders.enumerated() { recorder.onCall = { order.calls.append("\(index) \($0)") } }
        return (recorders, SessionOutputs(recorders, speechFallback: fallback))
    }

    private func field(_ typed: String, mask: Bool = false) -> FieldSnapshot {
        FieldSnapshot(label: "Code", characters: Array(typed), length: 6, mask: mask, isError: false)
    }

    @Test func everyOutputIsToldEachEffectInTheOrderTheyWereChosen() {
        let order = Order()
        var (recorders, set) = outputs(3, order: order)
        set.carryOut(.announce(Announcement(.digit, "9")), snapshot: field("9"))
        set.draw(field("9"))
        set.carryOut(.show("Wrong code, try 2 of 3."), snapshot: field("9"))
        set.end()
        set.release()
        #expect(
            order.calls == [
                "0 say", "1 say", "2 say",
                "0 draw", "1 draw", "2 draw", "0 present", "1 present", "2 present",
                "0 show", "1 show", "2 show", "0 draw", "1 draw", "2 draw", "0 present", "1 present", "2 present",
                "0 end", "1 end", "2 end", "0 release", "1 release", "2 release",
            ])
        #expect(recorders.allSatisfy { $0.said.map(\.text) == ["9"] })
        #expect(recorders.allSatisfy { $0.shown.map(\.lines) == [["Wrong code, try 2 of 3."]] && $0.shown[0].alsoSaid })
    }

    @Test func theViewIsShownOnlyWhenItChangedAndAgainOnceTheOutputsWereGivenBack() {
        let order = Order()
        var (recorders, set) = outputs(1, order: order)
        set.draw(field("1"))
        set.draw(field("1"))
        set.draw(field("12"))
        set.release()
        set.draw(field("12"))
        #expect(
            recorders[0].presented.map(\.field) == [
                .characters(["1"]), .characters(["1", "2"]), .characters(["1", "2"]),
            ])
        #expect(
            recorders[0].calls.filter { $0 == "draw" }.count == 4, "the screen is drawn every time: it diffs itself")
    }

    @Test func aMaskedFieldReachesAViewAsItsCountAlone() {
        let order = Order()
        var (recorders, set) = outputs(1, order: order)
        set.draw(field("hunter2", mask: true))
        #expect(recorders[0].presented == [SessionView(label: "Code: ", field: .masked(count: 7), cursor: 7)])
    }

    @Test func whenTheVoiceFailsEveryOutputTurnsToTextBeforeTheFirstLineIsWritten() {
        let order = Order()
        let voice = FailingSpeechBackend(failsAt: 2)
        let lines = RecordingSpeechBackend()
        let fallback = SpeechFallback(voice: voice, text: lines, wording: Wording(language: .en))
        var (_, set) = outputs(2, fallback: fallback, order: order)
        set.add(VoiceOutput(fallback))
        set.say(Announcement(.digit, "9"))
        #expect(!order.calls.contains { $0.hasSuffix("text") })
        let linesBefore = lines.spoken.count
        set.say(Announcement(.digit, "8"))
        #expect(linesBefore == 0)
        #expect(order.calls.filter { $0.hasSuffix("text") } == ["0 text", "1 text"])
        #expect(
            lines.texts == ["otc-prompt: speech-dispatcher stopped answering; announcements shown as text", "8"],
            "the notice and what the voice did not say, once the outputs turned")
        set.say(Announcement(.digit, "5"))
        #expect(order.calls.filter { $0.hasSuffix("text") }.count == 2, "switched once")
        #expect(voice.texts == ["9"])
    }

    @Test func theOutputsKeysAreTakenAndTheVoiceSaysWhetherItSpeaks() {
        let order = Order()
        let voice = RecordingSpeechBackend()
        var (_, set) = outputs(0, order: order)
        set.add(VoiceOutput(voice))
        set.add(RecordingSessionOutput(keys: [[.character("7")]]))
        set.takeNews()
        #expect(set.takeKeys() == [.character("7")])
        #expect(!set.isSpeaking)
        voice.isSpeaking = true
        #expect(set.isSpeaking, "a key held until the opening is heard waits for the voice")
    }

    /// An output that claims one capability only: told what that capability takes, and its end and close.
    final class Keyboard: KeyboardOfItsOwn {
        var calls: [String] = []
        var descriptor: Int32? { 41 }
        func takeKeys() -> [Key] {
            calls.append("keys")
            return [.character("4")]
        }
        func end() { calls.append("end") }
        func close() { calls.append("close") }
    }

    @Test func eachOutputIsToldOnlyWhatItClaimsAndEveryOneItsEndAndClose() {
        let order = Order()
        var (recorders, set) = outputs(1, order: order)
        let keyboard = Keyboard()
        set.add(keyboard)
        set.say(Announcement(.digit, "9"))
        set.draw(field("9"))
        set.release()
        #expect(set.descriptors == [41], "the recorder has no keys queued: it waits for none")
        #expect(set.takeKeys() == [.character("4")])
        set.end()
        set.close()
        #expect(keyboard.calls == ["keys", "end", "close"])
        #expect(recorders[0].calls == ["say", "draw", "present", "release", "end"])
    }
}
