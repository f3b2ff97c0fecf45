import OTCPromptCore
import OTCPromptTestSupport
import Testing

/// What is said of the announcements made while the voice was starting (`HeldSpeech.catchUp`).
struct HeldSpeechTests {
    private let opening = Announcement(.prompt, "Verification code, empty, 6-digit code.")
    private let now = Announcement(.prompt, "Verification code, 9 8, 6-digit code.")

    private func caughtUp(_ held: [Announcement]) -> [Announcement] {
        let speech = HeldSpeech()
        for announcement in held { speech.speak(announcement) }
        let voice = RecordingSpeechBackend()
        speech.release(to: voice) { now }
        return voice.spoken
    }

    @Test func nothingHeldSaysNothing() {
        #expect(caughtUp([]).isEmpty)
    }

    @Test func oneHeldIsSaidAsItIs() {
        #expect(caughtUp([opening]) == [opening])
    }

    @Test(arguments: [
        Announcement(.digit, "8"), Announcement(.delete, "deleted 8"), Announcement(.clear, "cleared"),
        Announcement(.paste, "pasted 9 8"),
    ])
    func keyEchoesGiveWayToTheFieldAsItIsNow(last: Announcement) {
        #expect(caughtUp([opening, Announcement(.digit, "9"), last]) == [now])
    }

    @Test func aFinalAnnouncementIsSaidAloneSoTheEndIsHeard() {
        let complete = Announcement(.complete, "1, code complete")
        #expect(caughtUp([opening, Announcement(.digit, "9"), complete]) == [complete])
    }

    @Test(arguments: [Announcement(.help, "Type the digits."), Announcement(.readback, "9 8. 2 of 6")])
    func whatTheUserAskedForIsSaid(last: Announcement) {
        #expect(caughtUp([opening, last]) == [last])
    }

    @Test func afterTheReleaseEveryAnnouncementIsSpokenAtOnce() {
        let speech = HeldSpeech()
        speech.speak(opening)
        let voice = RecordingSpeechBackend()
        speech.release(to: voice) { now }
        speech.speak(Announcement(.digit, "9"))
        #expect(voice.texts == [opening.text, "9"])
        #expect(!speech.isHolding)
    }
}

/// The voice most likely to be the one is given the first announcement at once (`HeldSpeech(provisional:)`).
struct HeldSpeechProvisionalTests {
    private let opening = Announcement(.prompt, "Verification code, empty, 6-digit code.")
    private let now = Announcement(.prompt, "Verification code, 9, 6-digit code.")

    @Test func theOpeningGoesToTheStartingVoiceAtOnceAndIsNotSaidTwice() {
        let engine = RecordingSpeechBackend()
        let speech = HeldSpeech(provisional: engine)
        speech.speak(opening)
        #expect(engine.spoken == [opening], "given before the release")
        speech.release(to: engine) { now }
        #expect(engine.spoken == [opening])
    }

    @Test func keysBeforeTheReleaseAreNotGivenToItButCaughtUp() {
        let engine = RecordingSpeechBackend()
        let speech = HeldSpeech(provisional: engine)
        speech.speak(opening)
        speech.speak(Announcement(.digit, "9"))
        speech.release(to: engine) { now }
        #expect(engine.spoken == [opening, now])
    }

    @Test func whenAnotherVoiceTakesOverItSaysWhatWasHeld() {
        let engine = RecordingSpeechBackend()
        let text = RecordingSpeechBackend()
        let speech = HeldSpeech(provisional: engine)
        speech.speak(opening)
        speech.release(to: text) { now }
        #expect(text.spoken == [opening])
    }
}
