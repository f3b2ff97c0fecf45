import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// More requests than the agent's queue holds, left by queriers that are gone: each is examined once and skipped,
/// and the agent reaches its wait and sits still there.
@Suite(.runsPrograms) struct AgentFloodEndToEndTests {
    let directory = AgentQuerier.directory()

    /// 4,100 requests whose querier is gone, its socket removed with it: a socket that is not there is no request
    /// answered meanwhile (that is its ask file gone), so each is skipped and remembered. Before, none was
    /// remembered, and every reading of the flooded directory queued them all again: 100 % CPU, never a wait.
    @Test func thousandsOfRequestsWhoseQueriersAreGoneAreSkippedOnceAndTheAgentIdles() async throws {
        for index in 0..<4100 {
            try AgentQuerier.write(
                "[Ask]\nPID=999999999\nSocket=\(directory)/sck.gone-\(index)\nMessage=Stale\n",
                to: directory + String(format: "/ask.stale-%04d", index))
        }
        let clock = ContinuousClock()
        let started = clock.now
        let run = try await PromptRun(
            ["--agent", "--agent-directory", directory], ready: "Waiting for password requests")
        let reached = started.duration(to: clock.now)
        // Two seconds in a release build; a debug build on a busy machine is given more.
        #expect(reached < .seconds(10), "the wait took \(reached)")
        let pid = run.process.processID
        #expect(await AgentIdleEndToEndTests.settles(pid, deadline: .seconds(10)), "the agent never went quiet")
        #expect(!run.process.screen.contains("Stale"), "a request whose querier is gone is not asked")
        let querier = try AgentQuerier(in: directory, lines: ["PID=\(getpid())", "Message=A real one"])
        #expect(await run.process.waitForScreen(containing: "A real one", deadline: .seconds(20)))
        await run.waitPastTheGrace()
        run.type([0x1B])
        #expect(await querier.answer() == "-")
    }
}
