import Foundation
import OTCPromptCore
import OTCPromptTestSupport
import Testing

@testable import OTCPromptSpeech

extension SpeechTests {
    @Suite struct DeviceTests {
        /// That nothing reaches the terminal is checked end to end (`NoAudioEndToEndTests`): here, in a
        /// process whose fd 2 the test runner writes to from other threads, only the capture is checked.
        @Test func withoutAnyAudioDeviceInitThrowsWithTheNoiseCaptured() throws {
            let server = ProcessInfo.processInfo.environment["PULSE_SERVER"]
            setenv("PULSE_SERVER", "unix:/nonexistent/otc-prompt-test/native", 1)
            defer { if let server { setenv("PULSE_SERVER", server, 1) } else { unsetenv("PULSE_SERVER") } }
            let outcome = Result { () throws(SpeechError) in
                try EspeakSpeechBackend(options: SpeechOptions(), output: .device)
            }
            guard case .failure(.noAudioDevice(let detail)) = outcome else {
                Issue.record("expected .noAudioDevice, got \(outcome)")
                return
            }
            #expect(!detail.contains("\n"))
            // What ALSA printed was captured into `detail`; which text exactly cannot be checked here,
            // since the test runner writes other tests' results to the same fd 2 meanwhile.
            #expect(detail.contains("PulseAudio"), "\(detail)")
            #expect(
                SpeechError.noAudioDevice(detail).description
                    == "speech unavailable: no audio device; announcements shown as text")
        }

        @Test(.enabled(if: PrivatePulseAudio.isInstalled, "needs pulseaudio, parec and sox (make deps)"))
        func speechReachesAPulseAudioNullSink() throws {
            let pulse = try #require(PrivatePulseAudio.start(), "PulseAudio is installed but did not start")
            defer { pulse.stop() }
            let rms = try pulse.recordingRMS(to: pulse.directory + "/monitor.raw") {
                // The server is passed to the stream, not set in the environment other tests spawn from.
                let backend = EspeakSpeechBackend.start(options: SpeechOptions()) { rate throws(SpeechError) in
                    try PulseAudioSink(sampleRate: rate, server: pulse.server)
                }
                try backend.waitUntilReady()
                backend.speak(Announcement(.readback, "9 8 5, 3 9 1, 6 of 6"))
                // The null sink adds ~2 s of latency to the 2.9 s readback; 4 s bounds the wait.
                backend.finish(timeout: .seconds(4))
            }
            #expect(rms > 0.001)
        }
    }
}
