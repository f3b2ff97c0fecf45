import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// `--agent` answering the real systemd-ask-password (systemd 252 here), which writes its requests in
/// /run/systemd/ask-password and honours no other directory: so root only, and the tests remove no file but their
/// own queriers'. The directory is made 0755 when missing, as systemd makes it; an existing one is left as it is.
@Suite(
    .runsPrograms, .serialized,
    .enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/bin/systemd-ask-password")))
struct AgentSystemdEndToEndTests {
    static let systemDirectory = "/run/systemd/ask-password"

    /// One `systemd-ask-password --no-tty`, its stdout (what the agent sent) read at its end.
    final class Querier {
        let process = Process()
        private let output = Pipe()

        init(_ message: String, options: [String] = []) throws {
            process.executableURL = URL(fileURLWithPath: "/bin/systemd-ask-password")
            process.arguments = ["--no-tty"] + options + [message]
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
        }

        /// What it printed once it ended, and how it ended; nil when it did not end within `deadline`.
        /// The task is suspended between looks, so its thread runs other tests while the querier waits.
        func result(deadline: Duration = .seconds(20)) async -> (output: String, status: Int32)? {
            let end = ContinuousClock.now + deadline
            while process.isRunning && ContinuousClock.now < end { try? await Task.sleep(for: .milliseconds(20)) }
            guard !process.isRunning else { return nil }
            let data = output.fileHandleForReading.readDataToEndOfFile()
            return (String(decoding: data, as: UTF8.self), process.terminationStatus)
        }

        deinit {
            if process.isRunning {
                process.terminate()
                process.waitUntilExit()
            }
        }
    }

    init() {
        var status = stat()
        if stat(Self.systemDirectory, &status) != 0 { mkdir(Self.systemDirectory, 0o755) }
    }

    /// The ask file (and its socket) a querier killed with SIGKILL left behind: only that querier's.
    static func removeFiles(of pid: Int32) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: systemDirectory)) ?? []
        for name in names where name.hasPrefix("ask.") {
            let path = systemDirectory + "/" + name
            guard let text = try? String(contentsOfFile: path, encoding: .utf8),
                text.split(separator: "\n").contains("PID=\(pid)")
            else { continue }
            if let socket = text.split(separator: "\n").first(where: { $0.hasPrefix("Socket=") }) {
                unlink(String(socket.dropFirst("Socket=".count)))
            }
            unlink(path)
        }
    }

    private func agent() async throws -> PromptRun {
        try await PromptRun(
            ["--agent", "--agent-directory", Self.systemDirectory], ready: "Waiting for password requests")
    }

    @Test func aPassphraseReachesSystemdAskPassword() async throws {
        let run = try await agent()
        let querier = try Querier("Passphrase for backup", options: ["--id=cryptsetup:/dev/sda2"])
        #expect(await run.process.waitForScreen(containing: "Passphrase for backup", deadline: .seconds(20)))
        #expect(
            await run.process.wait(deadline: .seconds(10)) { _ in
                run.log.contains { $0.text.contains("For disk sda2.") }
            })
        await run.waitPastTheGrace()
        run.type("correct horse\r")
        let result = await querier.result()
        #expect(result?.output == "correct horse\n")
        #expect(result?.status == 0)
        // The querier removed its file, then closed it: that is no request, and the agent says it waits once.
        let next = try Querier("Next querier")
        #expect(await run.process.waitForScreen(containing: "Next querier", deadline: .seconds(20)))
        let waits = run.log.filter { $0.text.contains("Waiting for password requests") }
        #expect(waits.count == 2, "\(waits)")
        await run.waitPastTheGrace()
        run.type([0x1B])
        #expect(await next.result() != nil)
    }

    @Test func severalQueriersOneTimingOutOneKilledWhileAsked() async throws {
        let run = try await agent()
        let first = try Querier("First querier")
        #expect(await run.process.waitForScreen(containing: "First querier", deadline: .seconds(20)))
        let timed = try Querier("Timed querier", options: ["--timeout=3"])
        let killed = try Querier("Killed querier")
        // The first is answered; the timed one runs out while it waits or while it is asked.
        await run.waitPastTheGrace()
        run.type("one\r")
        #expect(await first.result()?.output == "one\n")
        #expect(await timed.result(deadline: .seconds(20))?.status != 0)
        #expect(await run.process.waitForScreen(containing: "Killed querier", deadline: .seconds(20)))
        // SIGKILL: its file and socket stay, so only its process's end can withdraw it; they are removed after.
        let killedPID = killed.process.processIdentifier
        kill(killedPID, SIGKILL)
        defer { Self.removeFiles(of: killedPID) }
        #expect(
            await run.process.wait(deadline: .seconds(20)) { _ in
                run.log.contains { $0.text.contains("Request withdrawn.") }
            })
        #expect(
            await run.process.wait(deadline: .seconds(20)) { _ in
                run.log.last?.text.contains("Waiting for password requests") == true
            })
    }

    @Test func escCancelsSystemdAskPassword() async throws {
        let run = try await agent()
        let querier = try Querier("Cancel me")
        #expect(await run.process.waitForScreen(containing: "Cancel me", deadline: .seconds(20)))
        await run.waitPastTheGrace()
        run.type([0x1B])
        let result = await querier.result()
        #expect(result != nil && result?.status != 0 && result?.output == "")
    }
}
