import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// `--agent` and what happens to its directories: one removed or moved away and made again is said and watched
/// again (never a deaf wait); one flooded with thousands of requests it cannot ask is told in a few lines, read
/// once, and the agent still renews itself and idles.
@Suite(.runsPrograms) struct AgentDirectoryEndToEndTests {
    /// A private directory written plainly: an agent takes a socket's path only without "//" in it.
    private static func privateDirectory() -> String {
        PromptRun.privateDirectory().replacingOccurrences(of: "//", with: "/")
    }

    private func said(_ run: PromptRun, _ text: String, deadline: Duration = .seconds(20)) async -> Bool {
        await run.process.wait(deadline: deadline) { _ in run.log.contains { $0.text.contains(text) } }
    }

    /// Removed, or moved away (a request written where it went is not this directory's), then made again: each
    /// said, and a request in the new directory is asked.
    @Test(arguments: [false, true])
    func aDirectoryRemovedAndMadeAgainIsSaidAndWatchedAgain(movedAway: Bool) async throws {
        let parent = Self.privateDirectory()
        let directory = parent + "/ask"
        #expect(mkdir(directory, 0o700) == 0)
        let run = try await PromptRun(
            ["--agent", "--agent-directory", directory], ready: "Waiting for password requests")
        if movedAway {
            #expect(rename(directory, parent + "/elsewhere") == 0)
        } else {
            #expect(rmdir(directory) == 0)
        }
        #expect(await said(run, "\(directory) was removed"), "log: \(run.log.map(\.text))")
        if movedAway {
            let stray = try AgentQuerier(
                in: parent + "/elsewhere", lines: ["PID=\(getpid())", "Message=Where it went"])
            #expect(!stray.hasAnswer)
        }
        #expect(mkdir(directory, 0o700) == 0)
        #expect(await said(run, "Watching \(directory) again."), "log: \(run.log.map(\.text))")
        let querier = try AgentQuerier(in: directory, lines: ["PID=\(getpid())", "Message=In the new directory"])
        #expect(await run.process.waitForScreen(containing: "In the new directory", deadline: .seconds(20)))
        #expect(!run.process.screen.contains("Where it went"))
        await run.waitPastTheGrace()
        run.type("yes\r")
        #expect(await querier.answer() == "+yes")
    }

    /// Its parent removed too: watched from the nearest directory that is left, down to its own when it is back.
    @Test func aDirectoryWhoseParentWasRemovedTooIsWatchedAgainWhenBothAreBack() async throws {
        let root = Self.privateDirectory()
        let directory = root + "/otc-prompt/ask"
        #expect(mkdir(root + "/otc-prompt", 0o700) == 0 && mkdir(directory, 0o700) == 0)
        let run = try await PromptRun(
            ["--agent", "--agent-directory", directory], ready: "Waiting for password requests")
        #expect(rmdir(directory) == 0 && rmdir(root + "/otc-prompt") == 0)
        #expect(await said(run, "\(directory) was removed"))
        #expect(mkdir(root + "/otc-prompt", 0o700) == 0 && mkdir(directory, 0o700) == 0)
        #expect(await said(run, "Watching \(directory) again."), "log: \(run.log.map(\.text))")
        let querier = try AgentQuerier(in: directory, lines: ["PID=\(getpid())", "Message=Both back"])
        #expect(await run.process.waitForScreen(containing: "Both back", deadline: .seconds(20)))
        await run.waitPastTheGrace()
        run.type([0x1B])
        #expect(await querier.answer() == "-")
    }

    /// More requests than the queue holds, none of which can be asked (malformed, or their querier gone): told in
    /// one line a reason with its count, each file read once, and then the agent's usual day: its wait heard, its
    /// voice let go, itself renewed, and no thread waking.
    @Test(.enabled(if: PrivatePulseAudio.isInstalled, "needs pulseaudio, parec and sox (make deps)"))
    func thousandsOfUnaskableRequestsAreToldInAFewLinesAndTheAgentStillIdles() async throws {
        let directory = AgentQuerier.directory()
        let socket = try AgentQuerier(in: directory, name: "ask.zzzz-socket-owner", lines: ["PID=999999999"])
        for index in 0..<4000 {
            try AgentQuerier.write("not a request\n", to: directory + String(format: "/ask.%04d", index))
        }
        for index in 0..<200 {
            try AgentQuerier.write(
                "[Ask]\nPID=999999999\nSocket=\(socket.socketPath)\nMessage=Orphan\n",
                to: directory + String(format: "/ask.orphan-%03d", index))
        }
        try await VoicedAgent.run(in: directory) { run, trace in
            #expect(
                await VoicedAgent.renewed(run, trace, deadline: .seconds(60)),
                "never renewed: \(trace.events.suffix(5))")
            let refused = ScreenModel(run.process.screen).lines.filter { $0.contains("refused") }
            #expect(refused.count == 1, "\(refused) screen: \(ScreenModel(run.process.screen).lines)")
            #expect(refused.first?.contains("4000 requests refused: it is not a request") == true, "\(refused)")
            #expect(!run.process.screen.contains("Orphan"), "a request whose querier is gone is not asked")
            let pid = run.process.processID
            // "renewed" is traced as the new image starts: the count starts once it has gone quiet.
            #expect(
                await AgentIdleEndToEndTests.settles(pid, deadline: .seconds(15)), "the renewed agent never went quiet")
            let before = AgentIdleEndToEndTests.contextSwitches(of: pid)
            // Nothing is expected to happen in it: the window is what is measured.
            usleep(2_000_000)  // measured interval
            #expect(AgentIdleEndToEndTests.contextSwitches(of: pid) == before, "a thread woke while idle")
            let querier = try AgentQuerier(in: directory, lines: ["PID=\(getpid())", "Message=A real one"])
            #expect(await run.process.waitForScreen(containing: "A real one", deadline: .seconds(20)))
            #expect(ScreenModel(run.process.screen).lines.filter { $0.contains("refused") }.count == 1, "read again")
            await run.waitPastTheGrace()
            run.type([0x1B])
            #expect(await querier.answer() == "-")
        }
    }
}
