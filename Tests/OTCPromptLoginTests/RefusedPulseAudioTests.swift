import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

extension RealClientTests {
    /// Found by a tester: with `PULSE_SERVER` naming another user's PulseAudio, `--doctor` said "refused" while
    /// libpulse and pcaudiolib connected to it four times, each sending root's PulseAudio cookie; a prompt
    /// with `--speech auto` connected once. A refused server is now never connected to, by any library.
    @Suite struct RefusedPulseAudio {
        let scratch: ScratchDirectory
        let user: ThrowawayUser
        /// The throwaway user's directory with their PulseAudio's socket in it, which counts who connects.
        let pulse: String
        let pulseAudio: CountingSocket

        init() throws {
            scratch = try ScratchDirectory()
            user = try ThrowawayUser(in: scratch)
            let runtime = try scratch.runtimeDirectory(named: "victim", owner: user.userID, group: user.groupID)
            pulse = runtime + "/pulse"
            guard mkdir(pulse, 0o700) == 0, chown(pulse, user.userID, user.groupID) == 0 else {
                throw HarnessError("mkdir \(pulse)")
            }
            pulseAudio = try CountingSocket(path: pulse + "/native", owner: user.userID, group: user.groupID)
        }

        /// Waits until the voice's start-up has tried every device it would: the speech log's first line is held
        /// until then, and carries the way speech went (`"speech"`).
        func voiceStartupEnded(_ run: ClientRun, log: String) async -> Bool {
            await run.process.wait(deadline: .seconds(15)) { _ in
                (try? String(contentsOfFile: log, encoding: .utf8))?.contains("\"speech\": ") == true
            }
        }

        /// libpulse's own complaints, which must never reach the prompt's screen.
        static let libpulseNoise = ["not owned by us", "Failed to create secure directory", "pa_"]

        @Test func theDoctorNeverConnectsToIt() async throws {
            defer { pulseAudio.stop() }
            let environment = ClientRun.environment(["PULSE_SERVER": "unix:\(pulse)/native", "HOME": scratch.path])
            let report = try await runCommand([Askpass.binary, "--doctor"], environment: environment).output
            #expect(report.contains("the PulseAudio at \(pulse)/native is refused"), "\(report)")
            #expect(pulseAudio.connections == 0, "another user's PulseAudio was connected to:\n\(report)")
        }

        @Test(arguments: ["auto", "espeak"])
        func aPromptNeverConnectsToItNorShowsLibpulse(speech: String) async throws {
            defer { pulseAudio.stop() }
            let environment = ClientRun.environment(["PULSE_SERVER": "unix:\(pulse)/native", "HOME": scratch.path])
            let log = scratch.file("speech.jsonl")
            let run = try ClientRun(
                [Askpass.binary, "--speech", speech, "--speech-log", log], environment: environment)
            #expect(await run.waitForScreen("code"))
            #expect(await voiceStartupEnded(run, log: log))
            await run.typeKeys("739164")
            #expect(await run.exit() == .exited(0))
            #expect(pulseAudio.connections == 0, "another user's PulseAudio was connected to")
            for noise in Self.libpulseNoise {
                #expect(!run.visibleScreen.contains(noise), "\(run.visibleScreen)")
            }
        }

        /// After sudo -E or su, XDG_RUNTIME_DIR can name another user's directory: libpulse said "is not owned
        /// by us" on the prompt's screen, and the field was drawn after it, on the same line.
        @Test func anotherUsersRuntimeDirectoryLeavesTheScreenClean() async throws {
            defer { pulseAudio.stop() }
            var environment = ClientRun.environment([
                "XDG_RUNTIME_DIR": (pulse as NSString).deletingLastPathComponent, "HOME": scratch.path,
            ])
            environment["PULSE_SERVER"] = nil
            let log = scratch.file("speech.jsonl")
            let run = try ClientRun(
                [Askpass.binary, "--speech", "auto", "--speech-log", log], environment: environment)
            #expect(await run.waitForScreen("code"))
            #expect(await voiceStartupEnded(run, log: log))
            await run.typeKeys("739164")
            #expect(await run.exit() == .exited(0))
            #expect(pulseAudio.connections == 0, "another user's PulseAudio was connected to")
            for noise in Self.libpulseNoise {
                #expect(!run.visibleScreen.contains(noise), "\(run.visibleScreen)")
            }
        }
    }
}
