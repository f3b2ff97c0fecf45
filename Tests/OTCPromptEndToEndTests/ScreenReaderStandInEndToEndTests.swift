import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// `--speech auto` beside a screen reader of this user, played by a stand-in named "fenrir". A PID namespace hides the
/// host's processes from the prompt inside, but not the stand-in from the host: every other prompt of this user that
/// chooses its route meanwhile would find it. So this test runs alone among the tests that run programs.
@Suite(.runsAlone)
struct ScreenReaderStandInEndToEndTests {
    /// Rule 4 in a PID namespace of its own, so that the server it starts ends with the namespace: Fenrir runs,
    /// nothing answers on the socket, and speech-dispatcher is installed, so the prompt starts it (libspeechd's
    /// autospawn) and speaks through it.
    @Test(
        .enabled(
            if: Namespaces.available(["--pid", "--fork", "--mount-proc"])
                && PrivateSpeechDispatcher.isInstalled && PrivatePulseAudio.isInstalled,
            "needs a PID namespace (root, and a machine that allows it), speech-dispatcher and pulseaudio"))
    func aScreenReaderWithSpeechDispatcherInstalledGetsItStarted() async throws {
        let pulse = try #require(PrivatePulseAudio.start(), "PulseAudio is installed but did not start")
        defer { pulse.stop() }
        // Only for its configuration directory (espeak-ng module, pulse output): the prompt never talks to it.
        let template = try #require(PrivateSpeechDispatcher.start(pulse: pulse), "speech-dispatcher did not start")
        defer { template.stop() }
        let directory = template.directory
        // The stand-in Fenrir: /bin/sleep under that name, so that its /proc/PID/comm says "fenrir".
        _ = try runToCompletion("/bin/cp", ["/bin/sleep", directory + "/fenrir"])
        // $SPEECHD_CMD stands in for speech-dispatcher: it records libspeechd's arguments and starts a
        // private server on the socket path it was given.
        let script = directory + "/spawn.sh"
        try writeExecutable(
            """
            #!/bin/sh
            echo "$@" > \(directory)/spawn.arguments
            /usr/bin/speech-dispatcher -s -t 0 -C \(directory)/conf -S "$5" -L \(directory)/logs >/dev/null 2>&1 &
            """, to: script)
        let socket = directory + "/spawned.sock"
        let log = directory + "/speech.jsonl"
        let environment = PromptRun.environment(
            pulse.clientEnvironment.merging(["SPEECHD_ADDRESS": "unix_socket:\(socket)", "SPEECHD_CMD": script]) {
                $1
            })
        // The namespace's first process is the shell: when it exits, the kernel ends the stand-in and the server.
        let process = try PseudoTerminalProcess(
            executable: "/usr/bin/unshare",
            arguments: [
                "--pid", "--fork", "--mount-proc", "/bin/sh", "-c",
                "\"$0\" 60 & \"$1\" --speech auto --speech-log \"$2\"; status=$?; exit $status",
                directory + "/fenrir", PromptRun.binary, log,
            ],
            environment: environment)
        #expect(
            await process.waitForScreen(containing: "Verification code", deadline: .seconds(10)), "\(process.screen)")
        let rms = try pulse.recordingRMS(to: directory + "/heard.raw") {
            process.type("98")  // the recording goes on until they are heard
        }
        #expect(rms > 0.001, "nothing was heard on the sink (RMS \(rms))")
        process.type("5391")
        #expect(await process.waitForExit(deadline: .seconds(10)) == .exited(0))
        #expect(process.standardOutput == "985391\n")
        let first = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").first.map(String.init)
        let object = try JSONSerialization.jsonObject(with: Data((first ?? "").utf8)) as? [String: Any]
        #expect(
            object?["speech"] as? String
                == "speechd: Fenrir runs and speech-dispatcher is installed, so it is started to share one voice")
        let arguments = try String(contentsOfFile: directory + "/spawn.arguments", encoding: .utf8)
        #expect(arguments == "--spawn --communication-method unix_socket --socket-path \(socket)\n")
        #expect(!process.screen.contains("stopped answering"), "\(process.screen)")
    }
}
