import Foundation
import OTCPromptCore
import OTCPromptHost
import OTCPromptSystem
import OTCPromptTestSupport
import Testing

@testable import OTCPromptSpeechDispatcher

/// How far speech-dispatcher got with each announcement, for the speech log's outcome lines: its BEGIN and END
/// events, read as they come (the loop watches `newsDescriptor` while ours is speaking), against a real server.
@Suite(
    .runsPrograms,
    .serialized,
    .enabled(
        if: PrivateSpeechDispatcher.isInstalled && PrivatePulseAudio.isInstalled,
        "needs speech-dispatcher, speech-dispatcher-espeak-ng, pulseaudio, parec and sox (make deps)"))
struct ServerProgressTests {
    let user = UserAccount(name: "ana", homeDirectory: "/nonexistent")

    /// Waits as the loop does, on the backend's descriptor, reading what came, until `done` or `limit`.
    private func follow(
        _ backend: SpeechDispatcherBackend, for limit: Duration, until done: (SpeechProgress) -> Bool
    ) -> SpeechProgress? {
        let deadline = MonotonicInstant.now + limit
        while MonotonicInstant.now < deadline {
            if let progress = backend.progress, done(progress) { return progress }
            guard let descriptor = backend.newsDescriptor else { return backend.progress }
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&ready, 1, 50)
            backend.takeNews()
        }
        return backend.progress
    }

    @Test func anAnnouncementSaysWhenItBeganToBeHeardAndWhetherItWasHeardToItsEnd() throws {
        let pulse = try #require(PrivatePulseAudio.start(), "PulseAudio is installed but did not start")
        defer { pulse.stop() }
        let speechd = try #require(PrivateSpeechDispatcher.start(pulse: pulse), "speech-dispatcher did not start")
        defer { speechd.stop() }
        let proxy = try SSIPRecordingProxy(path: speechd.directory + "/proxy.sock", serverPath: speechd.socketPath)
        defer { proxy.close() }
        let environment = speechd.clientEnvironment.merging(["SPEECHD_ADDRESS": "unix_socket:\(proxy.path)"]) { $1 }
        let backend = try SpeechDispatcherBackend(
            options: SpeechDispatcherOptions(), environment: environment, user: user)
        #expect(backend.progress == SpeechProgress(number: 0, began: nil, heardBy: nil))
        let given = MonotonicInstant.now.nanoseconds
        backend.speak(Announcement(.prompt, "Passphrase for disk root. Type it, then Enter. Control R reads it again."))
        let begun = try #require(follow(backend, for: .seconds(10)) { $0.began != nil })
        #expect(begun.number == 1)
        let began = try #require(begun.began, "no BEGIN came: \(proxy.lines)")
        #expect(began >= given && began - given < 5_000_000_000)
        // Still speaking: not heard to its end.
        #expect(begun.heardBy == nil && backend.isSpeaking)
        // A key cuts it: the newest is the key's, nothing of it heard yet; the cut one never ends as heard.
        backend.speak(Announcement(.digit, "7"))
        #expect(backend.progress?.number == 2 && backend.progress?.began == nil)
        let heard = try #require(follow(backend, for: .seconds(10)) { $0.heardBy != nil })
        let keyBegan = try #require(heard.began)
        let keyEnded = try #require(heard.heardBy)
        #expect(heard.number == 2 && keyBegan > began && keyEnded >= keyBegan)
        #expect(backend.newsDescriptor == nil && !backend.isSpeaking)
        #expect(proxy.lines.contains("SET self NOTIFICATION begin on"))
        backend.finish(timeout: .seconds(3))
    }
}
