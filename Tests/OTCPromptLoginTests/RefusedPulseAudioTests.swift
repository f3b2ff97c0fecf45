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

        /// libpulse's own complaints, which must never reach the prompt's screen.
        static let libpulseNoise = ["not owned by us", "Failed to create secure directory", "pa_"]

        @Test func theDoctorNeverConnectsToIt() throws {
            defer { pulseAudio.stop() }
            let environment = ClientRun.environment(["PULSE_SERVER": "unix:\(pulse)/native", "HOME": scratch.path])
            let report = try runCommand([Askpass.binary, "--doctor"], environment: environment).output
            #expect(report.contains("the PulseAudio at \(pulse)/native is refused"), "\(report)")
            #expect(pulseAudio.connections == 0, "another user's PulseAudio was connected to:\n\(report)")
        }

        @Test(arguments: ["auto", "espeak"])
        func aPromptNeverConnectsToItNorShowsLibpulse(speech: String) throws {
            defer { pulseAudio.stop() }
            let environment = ClientRun.environment(["PULSE_SERVER": "unix:\(pulse)/native", "HOME": scratch.path])
            let run = try ClientRun([Askpass.binary, "--speech", speech], environment: environment)
            #expect(run.waitForScreen("code"))
            // Long enough for the voice's start-up to have tried every device it would.
            pause(.seconds(2))
            run.typeKeys("739164")
            #expect(run.exit() == .exited(0))
            #expect(pulseAudio.connections == 0, "another user's PulseAudio was connected to")
            for noise in Self.libpulseNoise {
                #expect(!run.visibleScreen.contains(noise), "\(run.visibleScreen)")
            }
        }

        /// After sudo -E or su, XDG_RUNTIME_DIR can name another user's directory: libpulse said "is not owned
        /// by us" on the prompt's screen, and the field was drawn after it, on the same line.
        @Test func anotherUsersRuntimeDirectoryLeavesTheScreenClean() throws {
            defer { pulseAudio.stop() }
            var environment = ClientRun.environment([
                "XDG_RUNTIME_DIR": (pulse as NSString).deletingLastPathComponent, "HOME": scratch.path,
            ])
            environment["PULSE_SERVER"] = nil
            let run = try ClientRun([Askpass.binary, "--speech", "auto"], environment: environment)
            #expect(run.waitForScreen("code"))
            pause(.seconds(2))
            run.typeKeys("739164")
            #expect(run.exit() == .exited(0))
            #expect(pulseAudio.connections == 0, "another user's PulseAudio was connected to")
            for noise in Self.libpulseNoise {
                #expect(!run.visibleScreen.contains(noise), "\(run.visibleScreen)")
            }
        }
    }
}
