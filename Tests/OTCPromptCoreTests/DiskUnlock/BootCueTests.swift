import OTCPromptCore
import Testing

/// The PC speaker's cues at boot: four shapes told apart by ear, each over before a key is typed.
@Suite struct BootCueTests {
    @Test(arguments: BootCue.allCases)
    func eachCueIsShortAndWithinWhatAPCSpeakerRendersWell(cue: BootCue) {
        let length = cue.tones.reduce(0) { $0 + $1.milliseconds + $1.pauseAfter }
        #expect(length <= 500)
        #expect(cue.tones.allSatisfy { (300...2000).contains($0.hertz) && $0.milliseconds >= 80 })
        #expect(cue.tones.last?.pauseAfter == 0)
    }

    /// Told apart by their pitches in order: no two cues are the same melody.
    @Test func noTwoCuesSoundAlike() {
        let melodies = BootCue.allCases.map { $0.tones.map(\.hertz) }
        #expect(Set(melodies.map { $0.map(String.init).joined(separator: " ") }).count == BootCue.allCases.count)
        #expect(BootCue.retry.tones.map(\.hertz) == BootCue.retry.tones.map(\.hertz).sorted(by: >), "falls")
        #expect(BootCue.unlocked.tones.map(\.hertz) == BootCue.unlocked.tones.map(\.hertz).sorted(), "rises")
    }

    @Test func aRetryIsSaidAsOneWhateverItAsksAndAFirstPINAsAPIN() {
        #expect(BootCue.question(isPIN: false, attempt: 1) == .firstTry)
        #expect(BootCue.question(isPIN: true, attempt: 1) == .pin)
        #expect(BootCue.question(isPIN: true, attempt: 2) == .retry)
        #expect(BootCue.question(isPIN: false, attempt: 3) == .retry)
    }

    @Test func theQuestionsCueIsPlayedOnceWhenItOpensAndEveryAnnouncementStillReachesTheLines() {
        let lines = RecordingLines()
        var played: [BootCue] = []
        let backend = CueSpeechBackend(wrapping: lines, cue: .retry) { played.append($0) }
        backend.speak(Announcement(.notice, "speech unavailable"))
        #expect(played.isEmpty)
        backend.speak(Announcement(.prompt, "Unlock disk vda"))
        backend.speak(Announcement(.digit, "bullet"))
        backend.speak(Announcement(.prompt, "Unlock disk vda"))
        #expect(played == [.retry])
        #expect(lines.said == ["speech unavailable", "Unlock disk vda", "bullet", "Unlock disk vda"])
    }
}

private final class RecordingLines: SpeechBackend {
    var said: [String] = []
    func speak(_ announcement: Announcement) { said.append(announcement.text) }
    func finish(timeout: Duration) {}
}
