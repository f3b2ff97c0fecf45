import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

extension RealClientTests {
    /// Another user plants the file the prompt is told to write (`--speech-log`, `--audio-file`) where they can:
    /// a sticky directory everyone may write, a directory of a group they are in, a directory of their own. Each
    /// planted file or FIFO is the throwaway user's, made by their own process; the prompt (root here) refuses it
    /// with one line and writes nothing into it, whatever its mode.
    @Suite(.serialized) struct PlantedFiles {
        enum Place: String, CaseIterable, CustomTestStringConvertible {
            /// 1777, root's: /tmp's shape (where fs.protected_regular=1 also refuses the open).
            case sticky
            /// 2770, root's, of the attacker's group.
            case groupShared
            /// 0755, the attacker's own.
            case theirs
            var testDescription: String { rawValue }
        }

        let scratch: ScratchDirectory
        let attacker: ThrowawayUser

        init() throws {
            scratch = try ScratchDirectory()
            attacker = try ThrowawayUser(in: scratch)
        }

        /// A directory of `place`'s shape in the scratch directory, made by this test (root).
        func directory(_ place: Place) throws -> String {
            let path = scratch.file(place.rawValue)
            try #require(mkdir(path, 0o700) == 0)
            switch place {
            case .sticky: try #require(chmod(path, 0o1777) == 0)
            case .groupShared: try #require(chown(path, 0, attacker.groupID) == 0 && chmod(path, 0o2770) == 0)
            case .theirs: try #require(chown(path, attacker.userID, attacker.groupID) == 0 && chmod(path, 0o755) == 0)
            }
            return path
        }

        /// Runs `script` as the attacker, in their home.
        func asAttacker(_ script: String) async throws {
            let result = try await runCommand(
                attacker.command(["/bin/sh", "-c", script]),
                environment: ["HOME": attacker.home, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
            try #require(result.status == .exited(0), "as the attacker: \(script): \(result.error)")
        }

        /// Runs the prompt with `option PATH`; types a code if it asks. Returns how it ended and its screen.
        func runPrompt(_ option: String, path: String, extra: [String: String] = [:]) async throws -> (
            status: ExitStatus?, screen: String
        ) {
            var arguments = ["--speech", "none", option, path]
            if option == "--audio-file" { arguments += ["--rate", "450"] }
            let runtime = try scratch.runtimeDirectory(named: "runtime-\(UUID().uuidString.prefix(8))")
            let process = try PseudoTerminalProcess(
                executable: Askpass.binary, arguments: arguments,
                environment: ClientRun.environment(
                    [
                        "HOME": scratch.path, "XDG_RUNTIME_DIR": runtime, "XDG_CONFIG_HOME": scratch.file("none"),
                    ].merging(extra) { $1 }))
            let asked = await waitUntil(deadline: .seconds(20)) {
                process.screen.contains("Verification code") || process.hasExited
            }
            if asked, !process.hasExited {
                try? await Task.sleep(for: ClientRun.reactionTime)
                process.type("481516")
            }
            let status = await process.waitForExit(deadline: .seconds(20))
            #expect(process.attributesAtStart.bytes == process.slaveAttributes().bytes)
            return (status, visibleText(process.screen))
        }

        func size(_ path: String) -> Int {
            var status = stat()
            return lstat(path, &status) == 0 ? Int(status.st_size) : -1
        }

        @Test(arguments: Place.allCases, ["--speech-log", "--audio-file"])
        func aPlantedFileIsRefusedAndReceivesNothing(place: Place, option: String) async throws {
            let path = try directory(place) + "/otc.out"
            try await asAttacker("umask 0 && : > '\(path)' && chmod 666 '\(path)'")
            let (status, screen) = try await runPrompt(option, path: path)
            #expect(status == .exited(64), "screen: \(screen)")
            #expect(size(path) == 0, "the planted file received \(size(path)) bytes")
            if place != .sticky {
                // In a sticky directory fs.protected_regular=1 may refuse the open itself, with its own words.
                #expect(screen.contains("belongs to user \(attacker.userID)"), "screen: \(screen)")
                #expect(screen.contains("nothing was written"), "screen: \(screen)")
            }
        }

        @Test(arguments: ["--speech-log", "--audio-file"])
        func aPlantedFIFOWithAReaderIsRefusedAndTheReaderHearsNothing(option: String) async throws {
            let place = try directory(.theirs)
            let fifo = place + "/otc.fifo"
            let heard = place + "/heard"
            try await asAttacker("mkfifo -m 666 '\(fifo)' && : > '\(heard)'")
            // The attacker's reader, waiting on the FIFO as their own process.
            let reader = try PseudoTerminalProcess(
                executable: "/usr/bin/setpriv",
                arguments: [
                    "--reuid=\(attacker.userID)", "--regid=\(attacker.groupID)", "--clear-groups", "--",
                    "/bin/sh", "-c", "exec cat '\(fifo)' > '\(heard)'",
                ], environment: ["PATH": "/usr/bin:/bin"], terminal: false)
            // Its open of the FIFO blocks until a writer comes: wait until it is there.
            #expect(
                await waitUntil(deadline: .seconds(10)) {
                    let waiting = try? String(contentsOfFile: "/proc/\(reader.processID)/wchan", encoding: .utf8)
                    return waiting == "wait_for_partner" || waiting == "fifo_open"
                }, "the attacker's reader never waited on the FIFO")
            let (status, screen) = try await runPrompt(option, path: fifo)
            #expect(status == .exited(64), "screen: \(screen)")
            #expect(screen.contains("belongs to user \(attacker.userID)"), "screen: \(screen)")
            // The reader saw its writer come and go: it ends with nothing read.
            #expect(await reader.waitForExit(deadline: .seconds(10)) == .exited(0))
            #expect(size(heard) == 0, "the attacker's reader got \(size(heard)) bytes")
        }

        /// The benchmarks' trace file (`OTC_PROMPT_TRACE`) is a file the prompt writes too: the same rule.
        @Test func aPlantedTraceFileReceivesNothing() async throws {
            let place = try directory(.theirs)
            let trace = place + "/trace"
            try await asAttacker("umask 0 && : > '\(trace)' && chmod 666 '\(trace)'")
            let audio = scratch.file("own.wav")
            let (status, screen) = try await runPrompt(
                "--audio-file", path: audio, extra: ["OTC_PROMPT_TRACE": trace])
            #expect(status == .exited(0), "screen: \(screen)")
            #expect(size(audio) > 44, "the prompt spoke into its own file")
            #expect(size(trace) == 0, "the planted trace received \(size(trace)) bytes")
        }

        @Test func aFileOfTheUsersOwnInTheSameDirectoryIsStillWritten() async throws {
            let path = try directory(.sticky) + "/mine.log"
            let (status, screen) = try await runPrompt("--speech-log", path: path)
            #expect(status == .exited(0), "screen: \(screen)")
            #expect(size(path) > 0)
        }
    }
}
