import OTCPromptCore
import OTCPromptTestSupport
import Testing

/// The one switch from speech to text: the voice only reports why it stopped, and the switch says so once
/// and shows what the voice did not say, as text lines, only once the screen is ready for them.
@Suite struct SpeechFallbackTests {
    let lines = RecordingSpeechBackend()

    func fallback(_ voice: any FallibleSpeechBackend, isFirstTime: @escaping (String) -> Bool = { _ in true })
        -> SpeechFallback
    {
        SpeechFallback(voice: voice, text: lines, wording: Wording(language: .en), isFirstTime: isFirstTime)
    }

    @Test func aVoiceThatSpeaksIsLeftAloneAndNothingIsShown() {
        let voice = FailingSpeechBackend()
        let switcher = fallback(voice)
        switcher.speak(Announcement(.digit, "9"))
        switcher.finish(timeout: .zero)
        #expect(voice.texts == ["9"])
        #expect(!switcher.awaitsTextScreen && !switcher.isText)
        #expect(lines.spoken.isEmpty)
    }

    @Test func aFailureMidPromptWaitsForTheScreenThenSaysWhyOnceAndShowsWhatWasNotSaid() {
        let voice = FailingSpeechBackend(failsAt: 2)
        let switcher = fallback(voice)
        switcher.speak(Announcement(.digit, "9"))
        switcher.speak(Announcement(.digit, "8"))
        switcher.speak(Announcement(.digit, "5"))
        // Nothing on the screen before the loop has ended the field's line.
        #expect(switcher.awaitsTextScreen)
        #expect(lines.spoken.isEmpty)
        switcher.screenIsText()
        switcher.speak(Announcement(.digit, "3"))
        #expect(!switcher.awaitsTextScreen && switcher.isText)
        #expect(
            lines.texts == [
                "otc-prompt: speech-dispatcher stopped answering; announcements shown as text", "8", "5", "3",
            ])
        #expect(lines.events.first == .notice)
        #expect(voice.texts == ["9"])
    }

    @Test func aFailureFoundWhenThePromptIsOverIsShownAtOnce() {
        let voice = FailingSpeechBackend()
        let switcher = fallback(voice)
        switcher.speak(Announcement(.complete, "9 8, code complete", isFinal: true))
        voice.fail(because: .audioFileStopped(path: "/tmp/code.fifo", why: "no reader"))
        switcher.finish(timeout: .zero)
        #expect(
            lines.texts == [
                "otc-prompt: the audio file /tmp/code.fifo takes no more audio (no reader); announcements shown as text"
            ])
    }

    @Test func speechUnavailableAtStartUpIsSaidOncePerLoginSessionButTheLinesStillCome() {
        let voice = UnavailableVoice(.noAudioDevice)
        voice.speak(Announcement(.prompt, "Verification code, empty"))
        let switcher = fallback(voice, isFirstTime: { _ in false })
        #expect(switcher.awaitsTextScreen)
        switcher.screenIsText()
        #expect(lines.texts == ["Verification code, empty"])
    }

    @Test func aFailureMidPromptIsAlwaysSaidEvenWhenItsNoticeWasGivenBefore() {
        let switcher = fallback(FailingSpeechBackend(failsAt: 1), isFirstTime: { _ in false })
        switcher.speak(Announcement(.digit, "9"))
        switcher.screenIsText()
        #expect(lines.events == [.notice, .digit])
    }

    static let failures: [SpeechFailure] = [
        .noAudioDevice, .audioServerDidNotAnswer(server: "PulseAudio", within: .seconds(2)),
        .audioDeviceNotReady(within: .milliseconds(1500)),
        .libraryUnavailable(problem: "libpulse.so.0 cannot be loaded"),
        .speechDispatcherUnavailable(problem: "speech-dispatcher: no server"), .speechDispatcherStopped,
        .audioFileStopped(path: "/tmp/fifo", why: "no reader"),
    ]

    @Test(arguments: failures)
    func everyReasonIsWordedInEveryLanguageAndSaysTheAnnouncementsAreText(failure: SpeechFailure) {
        let english = Wording(language: .en).speechFallback(failure)
        let portuguese = Wording(language: .ptBR).speechFallback(failure)
        #expect(english.hasSuffix("; announcements shown as text"))
        #expect(portuguese.hasSuffix("; anúncios mostrados como texto"))
        #expect(english != portuguese)
    }

    @Test func theEnglishNoticesReadAsBeforeTheSwitchWasOne() {
        let english = Wording(language: .en)
        #expect(
            english.speechFallback(.noAudioDevice) == "speech unavailable: no audio device; announcements shown as text"
        )
        #expect(
            english.speechFallback(.audioDeviceNotReady(within: .milliseconds(1500)))
                == "speech unavailable: the audio device did not start within 1.5 s; announcements shown as text")
    }

    @Test func aPathWithControlCharactersIsShownScrubbed() {
        let notice = Wording(language: .en).speechFallback(.audioFileStopped(path: "/tmp/a\u{1B}[2Jb", why: "gone"))
        #expect(!notice.contains("\u{1B}"))
    }
}
