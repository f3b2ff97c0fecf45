import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// What `--agent` refuses to believe: every refused request is said on the screen and never asked, and the agent
/// goes on to the next one. A thousand requests at once are queued, counted and withdrawn without a crash.
@Suite(.runsPrograms) struct AgentRefusalsEndToEndTests {
    let directory = AgentQuerier.directory()

    private func agent(ready: String) async throws -> PromptRun {
        try await PromptRun(["--agent", "--agent-directory", directory], ready: ready)
    }

    /// Writes the refused requests, then a good one: the good one is asked, and each bad one was said refused.
    private func expectRefused(_ reason: String, write: () throws -> [AgentQuerier]) async throws {
        let kept = try write()
        // Last by name too: requests made within one tick of the file system's clock are taken by name.
        let good = try AgentQuerier(
            in: directory, name: "ask.zz-good", lines: ["PID=\(getpid())", "Message=The good one"])
        let run = try await agent(ready: "The good one")
        #expect(run.process.screen.contains(reason), "screen: \(run.process.screen)")
        await run.waitPastTheGrace()
        run.type([0x1B])
        #expect(await good.answer() == "-")
        #expect(kept.allSatisfy { !$0.hasAnswer })
    }

    @Test func aSymlinkIsNeverFollowed() async throws {
        try await expectRefused("ask.link refused: it is not a regular file") {
            let target = try AgentQuerier(
                in: PromptRun.privateDirectory(), lines: ["PID=\(getpid())", "Message=Elsewhere"])
            #expect(symlink(target.askPath, directory + "/ask.link") == 0)
            return [target]
        }
    }

    @Test func aSocketOutsideTheDirectoryIsRefused() async throws {
        let elsewhere = AgentQuerier.directory()
        try await expectRefused("refused: its socket is not in the same directory") {
            let outside = try AgentQuerier(in: elsewhere, lines: ["PID=\(getpid())", "Message=Outside"])
            try AgentQuerier.write(
                "[Ask]\nPID=\(getpid())\nSocket=\(outside.socketPath)\nMessage=Outside\n",
                to: directory + "/ask.outside")
            return [outside]
        }
    }

    @Test func aSocketPathClimbingOutIsRefused() async throws {
        try await expectRefused("ask.climb refused: it is not a request") {
            try AgentQuerier.write(
                "[Ask]\nPID=\(getpid())\nSocket=\(directory)/../sck.x\nMessage=Climb\n", to: directory + "/ask.climb")
            return []
        }
    }

    @Test func aSocketThatIsARegularFileIsRefused() async throws {
        try await expectRefused("ask.plain refused: its socket is not a socket") {
            FileManager.default.createFile(atPath: directory + "/sck.plain", contents: Data())
            try AgentQuerier.write(
                "[Ask]\nPID=\(getpid())\nSocket=\(directory)/sck.plain\nMessage=Plain\n", to: directory + "/ask.plain")
            return []
        }
    }

    @Test(.enabled(if: getuid() == 0, "chown needs root"))
    func aSocketOfAnotherUserIsRefused() async throws {
        try await expectRefused("ask.foreign refused: its socket does not belong") {
            let foreign = try AgentQuerier(
                in: directory, name: "ask.foreign", lines: ["PID=\(getpid())", "Message=Foreign"])
            #expect(chown(foreign.socketPath, 65534, 65534) == 0)
            return [foreign]
        }
    }

    @Test func aHugeFileIsRefusedUnread() async throws {
        try await expectRefused("ask.huge refused: it is larger than 64 KiB") {
            let text = "[Ask]\nSocket=\(directory)/sck.none\nMessage=" + String(repeating: "A", count: 70_000) + "\n"
            try AgentQuerier.write(text, to: directory + "/ask.huge")
            return []
        }
    }

    @Test func aMalformedFileIsRefused() async throws {
        try await expectRefused("ask.bad refused: it is not a request") {
            try AgentQuerier.write("\u{0}\u{1}garbage=\n[Ask\nPID=x\n", to: directory + "/ask.bad")
            return []
        }
    }

    @Test func aRefusedFileNameIsShownEscapedNeverObeyed() async throws {
        try await expectRefused("ask.\\x1B[2J refused: it is not a request") {
            try AgentQuerier.write("not an ask file\n", to: directory + "/ask.\u{1B}[2J")
            return []
        }
    }

    @Test func aThousandRequestsAreQueuedCountedAndWithdrawnWithoutACrash() async throws {
        let socketOwner = try AgentQuerier(
            in: directory, name: "ask.0000", lines: ["PID=\(getpid())", "Message=Number 0"])
        for index in 1..<1000 {
            try AgentQuerier.write(
                "[Ask]\nPID=\(getpid())\nSocket=\(socketOwner.socketPath)\nMessage=Number \(index)\n",
                to: directory + String(format: "/ask.%04d", index))
        }
        let run = try await agent(ready: "Number 0")
        #expect(
            await run.process.wait(deadline: .seconds(20)) { _ in
                run.log.contains { $0.text.contains("999 more waiting.") }
            })
        let status = (try? String(contentsOfFile: "/proc/\(run.process.processID)/status", encoding: .utf8)) ?? ""
        let resident = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
        let kilobytes = resident.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        #expect(kilobytes < 200_000, "resident \(kilobytes) kB")
        for index in 0..<1000 { unlink(directory + String(format: "/ask.%04d", index)) }
        #expect(
            await run.process.wait(deadline: .seconds(30)) { _ in
                run.log.contains { $0.text.contains("Waiting for password requests") }
            })
        #expect(!run.process.hasExited)
    }
}
