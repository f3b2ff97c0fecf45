import Foundation
import OTCPromptCore
import Testing

@testable import OTCPromptSpeech

extension SpeechTests {
    @Suite struct DeviceTests {
        @Test func withoutAnyAudioDeviceInitThrowsAndTheTerminalSeesNothing() throws {
            let server = ProcessInfo.processInfo.environment["PULSE_SERVER"]
            setenv("PULSE_SERVER", "unix:/nonexistent/otc-prompt-test/native", 1)
            defer { if let server { setenv("PULSE_SERVER", server, 1) } else { unsetenv("PULSE_SERVER") } }
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("otc-\(getpid())-fd2").path
            defer { try? FileManager.default.removeItem(atPath: path) }
            let file = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            try #require(file >= 0)
            fflush(nil)
            let saved = dup(2)
            dup2(file, 2)
            close(file)
            let outcome = Result { () throws(SpeechError) in
                try EspeakSpeechBackend(options: SpeechOptions(), output: .device)
            }
            fflush(nil)
            dup2(saved, 2)
            close(saved)
            let leaked = try String(contentsOfFile: path, encoding: .utf8)
            #expect(leaked.isEmpty, "reached fd 2: \(leaked)")
            guard case .failure(.noAudioDevice(let detail)) = outcome else {
                Issue.record("expected .noAudioDevice, got \(outcome)")
                return
            }
            #expect(!detail.contains("\n"))
            // The ALSA fallback did print (this is what espeak-ng's own command shows): it was captured.
            #expect(detail.contains("ALSA lib"), "\(detail)")
            #expect(
                SpeechError.noAudioDevice(detail).description
                    == "speech unavailable: no audio device; announcements shown as text")
        }

        @Test func speechReachesAPulseAudioNullSink() throws {
            guard let pulse = PrivatePulseAudio.start() else {
                print("SKIPPED speechReachesAPulseAudioNullSink: pulseaudio, parec or sox is not available")
                return
            }
            defer { pulse.stop() }
            let recording = pulse.directory + "/monitor.raw"
            let parec = Process()
            parec.executableURL = URL(fileURLWithPath: "/usr/bin/parec")
            parec.arguments = ["-d", "otc.monitor", "--format=s16le", "--rate=22050", "--channels=1", recording]
            parec.environment = pulse.clientEnvironment
            try parec.run()
            defer { if parec.isRunning { parec.terminate() } }
            usleep(300_000)

            setenv("PULSE_SERVER", pulse.server, 1)
            defer { unsetenv("PULSE_SERVER") }
            let backend = try EspeakSpeechBackend(options: SpeechOptions(), output: .device)
            backend.speak(Announcement(.readback, "9 8 5, 3 9 1, 6 of 6"))
            // The null sink adds ~2 s of latency to the 2.9 s readback; 4 s bounds the wait.
            backend.finish(timeout: .seconds(4))
            usleep(300_000)
            parec.terminate()
            let deadline = Date().addingTimeInterval(1)
            while parec.isRunning, Date() < deadline { usleep(20_000) }
            if parec.isRunning { kill(parec.processIdentifier, SIGKILL) }

            let statistics = try run(
                "/usr/bin/sox",
                ["-t", "raw", "-r", "22050", "-e", "signed", "-b", "16", "-c", "1", recording, "-n", "stat"])
            let rms = statistics.split(separator: "\n").first { $0.hasPrefix("RMS     amplitude") }
                .flatMap { Double($0.split(separator: " ").last ?? "") }
            #expect((rms ?? 0) > 0.001, "\(statistics)")
        }
    }
}

/// A PulseAudio daemon of the test's own, with a null sink, on a private socket: other tests
/// on the machine keep seeing no audio server.
struct PrivatePulseAudio {
    let directory: String
    var server: String { "unix:\(directory)/native" }
    var clientEnvironment: [String: String] {
        ProcessInfo.processInfo.environment.merging(["PULSE_SERVER": server, "PULSE_RUNTIME_PATH": directory]) { $1 }
    }

    static func start() -> PrivatePulseAudio? {
        let tools = ["/usr/bin/pulseaudio", "/usr/bin/parec", "/usr/bin/sox"]
        guard tools.allSatisfy(FileManager.default.isExecutableFile(atPath:)) else { return nil }
        var template = Array("/tmp/otc-pulse-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else { return nil }
        let pulse = PrivatePulseAudio(directory: String(cString: made))
        _ = try? run(
            "/usr/bin/pulseaudio",
            [
                "--daemonize=yes", "--exit-idle-time=-1", "-n", "--use-pid-file=yes",
                "--load=module-null-sink sink_name=otc",
                "--load=module-native-protocol-unix socket=\(pulse.directory)/native",
            ], environment: pulse.clientEnvironment.merging(["HOME": pulse.directory]) { $1 }, captureOutput: false)
        let deadline = Date().addingTimeInterval(5)
        while !FileManager.default.fileExists(atPath: pulse.directory + "/native"), Date() < deadline {
            usleep(20_000)
        }
        guard FileManager.default.fileExists(atPath: pulse.directory + "/native") else {
            pulse.stop()
            return nil
        }
        return pulse
    }

    func stop() {
        _ = try? run(
            "/usr/bin/pulseaudio", ["-k"],
            environment: clientEnvironment.merging(["HOME": directory]) { $1 }, captureOutput: false)
        try? FileManager.default.removeItem(atPath: directory)
    }
}
