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

        /// The same with nothing of PulseAudio in that directory: libpulse still looked at it, and said so on stderr,
        /// which is the prompt's terminal, or a caller's log.
        @Test func anotherUsersRuntimeDirectoryWithNoSocketLeavesTheScreenAndStderrClean() async throws {
            defer { pulseAudio.stop() }
            let bare = try scratch.runtimeDirectory(named: "bare", owner: user.userID, group: user.groupID)
            var environment = ClientRun.environment(["XDG_RUNTIME_DIR": bare, "HOME": scratch.path])
            environment["PULSE_SERVER"] = nil
            let log = scratch.file("speech.jsonl")
            let process = try PseudoTerminalProcess(
                executable: Askpass.binary, arguments: ["--speech", "espeak", "--speech-log", log],
                environment: environment, standardError: .pipe)
            #expect(await process.waitForScreen(containing: "code", deadline: .seconds(15)))
            #expect(
                await process.wait(deadline: .seconds(15)) { _ in
                    (try? String(contentsOfFile: log, encoding: .utf8))?.contains("\"speech\": ") == true
                })
            process.type([0x1B])
            #expect(await process.waitForExit(deadline: .seconds(20)) == .exited(130))
            for noise in Self.libpulseNoise {
                #expect(!visibleText(process.screen).contains(noise), "\(process.screen)")
                #expect(!process.standardErrorText.contains(noise), "\(process.standardErrorText)")
            }
        }

        /// An askpass with no terminal (a detached ssh-agent's) posts its question and speaks nothing: it loaded
        /// espeak-ng and libpulse all the same, and libpulse complained on the caller's stderr about a runtime
        /// directory that is not the caller's.
        @Test func anAskpassWithNoTerminalSaysNothingOfLibpulseOnTheCallersStderr() async throws {
            defer { pulseAudio.stop() }
            let bare = try scratch.runtimeDirectory(named: "bare", owner: user.userID, group: user.groupID)
            var environment = ClientRun.environment(["XDG_RUNTIME_DIR": bare, "HOME": scratch.path])
            environment["PULSE_SERVER"] = nil
            let process = try PseudoTerminalProcess(
                executable: Askpass.binary, arguments: ["--askpass", "Passphrase for key:"], environment: environment,
                terminal: false)
            #expect(await process.waitForExit(deadline: .seconds(20)) == .exited(74))
            #expect(process.standardErrorText.contains("could not be posted"), "\(process.standardErrorText)")
            for noise in Self.libpulseNoise {
                #expect(!process.standardErrorText.contains(noise), "\(process.standardErrorText)")
            }
        }

        @Test func anAskpassWaitingForTheAgentHoldsNoAudioLibrary() async throws {
            defer { pulseAudio.stop() }
            let runtime = try scratch.runtimeDirectory(named: "own")
            let process = try PseudoTerminalProcess(
                executable: Askpass.binary, arguments: ["--askpass", "Passphrase for key:"],
                environment: ClientRun.environment(["XDG_RUNTIME_DIR": runtime, "HOME": scratch.path]),
                terminal: false)
            defer { process.sendSignal(SIGTERM) }
            let posted = runtime + "/systemd/ask-password"
            #expect(
                await waitUntil(deadline: .seconds(20)) {
                    ((try? FileManager.default.contentsOfDirectory(atPath: posted)) ?? []).contains {
                        $0.hasPrefix("ask.")
                    }
                }, "the question was never posted")
            let maps = (try? String(contentsOfFile: "/proc/\(process.processID)/maps", encoding: .utf8)) ?? ""
            #expect(!maps.isEmpty)
            for library in ["libespeak-ng", "libpulse", "libpcaudio", "libasound"] {
                #expect(!maps.contains(library), "\(library) is loaded by a run that will not speak")
            }
        }
    }
}
