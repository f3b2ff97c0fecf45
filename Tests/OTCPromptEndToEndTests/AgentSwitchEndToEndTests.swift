import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// `--agent` when a request ends under the user's fingers (its time passes, its querier withdraws it, another agent
/// answers it): no key typed for it reaches the next request or stops the agent, and the drop is said. And the
/// queue's news while a field is open: a request that arrives is said at once, a readback says what waits.
@Suite(.runsPrograms) struct AgentSwitchEndToEndTests {
    let directory = AgentQuerier.directory()
    /// The quiet after which held keys count again (`TypeAheadRule.switchQuiet`): a test typing slower has stalled.
    static let switchQuiet: Duration = .milliseconds(1500)

    private func agent() async throws -> PromptRun {
        try await PromptRun(["--agent", "--agent-directory", directory], ready: "Waiting for password requests")
    }

    private func said(_ run: PromptRun, _ text: String, deadline: Duration = .seconds(20)) async -> Bool {
        await run.process.wait(deadline: deadline) { _ in run.log.contains { $0.text.contains(text) } }
    }

    /// The attack: the user types A's password by ear, a key every 0.45 s; A's time passes mid-password and B, which
    /// a program timed to follow it, is asked at once. None of A's keys, nor its Enter, reach B; the drop is said once
    /// the user stops; what they type after is B's answer, whole.
    @Test func aListenersKeysForARequestThatEndsNeverReachTheNext() async throws {
        let run = try await agent()
        let first = try AgentQuerier(
            in: directory,
            lines: ["PID=\(getpid())", "NotAfter=\(AgentQuerier.notAfter(seconds: 8))", "Message=Request A"])
        #expect(await run.process.waitForScreen(containing: "Request A", deadline: .seconds(20)))
        let second = try AgentQuerier(in: directory, lines: ["PID=\(getpid())", "Message=Request B"])
        await run.waitPastTheGrace()
        #expect(!run.log.contains { $0.text.contains("Request B. ") }, "A ran out before the test typed for it")
        // A listener's pace, on through A's end and B's opening (however long they take on a busy machine), then
        // Enter within one key's gap: every key was meant for A.
        let gap = await typePaced(
            run, "x", every: .milliseconds(450), until: { $0.log.contains { $0.text.contains("Request B. ") } },
            then: Array("yz\r".utf8))
        #expect(gap < Self.switchQuiet, "the test itself stalled between two keys: \(gap)")
        #expect(await said(run, "Request withdrawn."))
        #expect(await said(run, "keys were dropped."), "log: \(run.log.map(\.text))")
        #expect(!first.hasAnswer && !second.hasAnswer, "a key of A's reached B")
        #expect(run.process.screen.contains("Request B"))
        run.type("B's own\r")
        #expect(await second.answer() == "+B's own")
    }

    /// A request whose time runs out says "time is up" before the next is asked: the terminal stays raw all along,
    /// so a key typed meanwhile (a password's) is never echoed on the screen.
    @Test(.enabled(if: PrivatePulseAudio.isInstalled, "needs pulseaudio, parec and sox (make deps)"))
    func keysTypedAsARequestRunsOutAreNeverEchoed() async throws {
        let pulse = try #require(PrivatePulseAudio.start(), "PulseAudio is installed but did not start")
        defer { pulse.stop() }
        let run = try await PromptRun(
            ["--agent", "--agent-directory", directory],
            environment: PromptRun.environment(["PULSE_SERVER": pulse.server]), speech: "espeak",
            ready: "Waiting for password requests")
        let first = try AgentQuerier(
            in: directory,
            lines: ["PID=\(getpid())", "NotAfter=\(AgentQuerier.notAfter(seconds: 8))", "Message=Runs out"])
        let second = try AgentQuerier(in: directory, lines: ["PID=\(getpid())", "Message=Comes next"])
        #expect(await run.process.waitForScreen(containing: "Runs out", deadline: .seconds(20)))
        await run.waitPastTheGrace()
        #expect(!run.log.contains { $0.text.contains("Comes next. ") }, "the request ran out before the test typed")
        // The scenario's pace, on through the request's end, its last words and the next one's opening, however
        // long they take on a busy machine.
        let gap = await typePaced(
            run, "Q", every: .milliseconds(200), until: { $0.log.contains { $0.text.contains("Comes next. ") } },
            then: Array("QQ".utf8))
        #expect(gap < Self.switchQuiet, "the test itself stalled between two keys: \(gap)")
        #expect(await said(run, "keys were dropped."), "log: \(run.log.map(\.text))")
        #expect(!visibleText(run.process.screen).contains("Q"), "a key was echoed: \(run.process.screen)")
        #expect(!first.hasAnswer && !second.hasAnswer)
    }

    /// A is withdrawn after five keys and the agent shows its wait; B is posted while the user types on at a
    /// listener's pace. The rest of A's password, its Enter and an Esc meant for A reach neither B nor the wait:
    /// the hold that began with A's withdrawal goes on into B, every key counted once (those the wait dropped with
    /// those B did), and B gets only its own answer.
    @Test func keysOfARequestWithdrawnIntoTheWaitNeverReachTheRequestThatEndsIt() async throws {
        let run = try await agent()
        let first = try AgentQuerier(in: directory, lines: ["PID=\(getpid())", "Message=Request A"])
        #expect(await run.process.waitForScreen(containing: "Request A", deadline: .seconds(20)))
        await run.waitPastTheGrace()
        run.type("abcde")
        // A's five keys are in its field (wiped with it), not left for the wait to drop and count.
        #expect(await said(run, "5 entered"))
        unlink(first.askPath)
        #expect(await said(run, "Request withdrawn."))
        // B comes 0.3 s into the wait, while the user still types A's password, then Enter and Esc for A.
        nonisolated(unsafe) var second: AgentQuerier?
        // Each look is after one "f" typed.
        nonisolated(unsafe) var typed = 0
        let directory = directory
        let gap = await typePaced(
            run, "f", every: .milliseconds(150),
            until: { run in
                typed += 1
                if second == nil {
                    usleep(300_000)
                    second = try? AgentQuerier(in: directory, lines: ["PID=\(getpid())", "Message=Request B"])
                }
                return run.log.contains { $0.text.contains("Request B") }
            }, then: Array("gh\r\u{1B}".utf8))
        #expect(gap < Self.switchQuiet, "the test itself stalled between two keys: \(gap)")
        // Every key since the withdrawal was heard, in the wait and in B, counted once: the f's, g, h, Enter, Esc.
        #expect(await said(run, "\(typed + 4) keys were dropped."), "typed \(typed + 4); log: \(run.log.map(\.text))")
        #expect(second?.hasAnswer == false, "A's keys answered B")
        #expect(!run.process.hasExited, "A's Esc stopped the agent")
        await run.waitPastTheGrace()
        run.type("ok\r")
        #expect(await second?.answer() == "+ok")
    }

    /// 300 requests posted at once while one is answered: one merged line, counted then ("300 more waiting: …"),
    /// never a line for each, and the field keeps its keys.
    @Test func threeHundredRequestsAtOnceAreOneMergedLine() async throws {
        let run = try await agent()
        let first = try AgentQuerier(in: directory, lines: ["PID=\(getpid())", "Message=Request A"])
        #expect(await run.process.waitForScreen(containing: "Request A", deadline: .seconds(20)))
        await run.waitPastTheGrace()
        run.type("abc")
        let posting = ContinuousClock.now
        let flood = try (0..<300).map { index in
            try AgentQuerier(
                in: directory, name: String(format: "ask.flood-%03d", index),
                lines: ["PID=\(getpid())", "Message=Flood \(index)"])
        }
        let posted = ContinuousClock.now - posting
        #expect(
            await run.process.wait(deadline: .seconds(20)) { _ in
                run.log.contains { $0.text.hasPrefix("300 more waiting: ") }
            }, "log: \(run.log.map(\.text).suffix(10))")
        let news = run.log.filter { $0.text.contains("more waiting") || $0.text.contains("ew request") }
        // Each is said when the last has been heard, at most once a second: one as the posting begins, one a second
        // while it lasts (well under two on a quiet machine, several beside a busy one), and the last count.
        let bound = 2 + Int((posted / .seconds(1)).rounded(.up))
        #expect(news.count <= bound, "\(news.count) lines in \(posted) of posting: \(news.map(\.text).prefix(10))")
        run.type("d\r")
        #expect(await first.answer() == "+abcd")
        #expect(flood.allSatisfy { !$0.hasAnswer })
    }

    /// Two agents run and the other answers first: an Esc pressed just after "Request withdrawn." was meant for that
    /// request, and neither cancels the wait nor stops this agent.
    @Test func escapeJustAfterAWithdrawalDoesNotStopTheAgent() async throws {
        let run = try await agent()
        let querier = try AgentQuerier(in: directory, lines: ["PID=\(getpid())", "Message=Answered elsewhere"])
        #expect(await run.process.waitForScreen(containing: "Answered elsewhere", deadline: .seconds(20)))
        await run.waitPastTheGrace()
        run.type("abc")
        unlink(querier.askPath)
        // Typing on at a listener's pace until the news is there, then Esc: however long the news takes to come on
        // a busy machine, the Esc comes within one key's gap of it, as a person's would.
        let gap = await typePaced(
            run, "d", every: .milliseconds(200), until: { $0.log.contains { $0.text.contains("Request withdrawn.") } },
            then: [0x1B])
        #expect(gap < Self.switchQuiet, "the test itself stalled between two keys: \(gap)")
        #expect(await said(run, "keys were dropped."), "log: \(run.log.map(\.text))")
        #expect(!run.process.hasExited, "the Esc stopped the agent")
        #expect(!run.log.contains { $0.text.contains("Agent stopped") })
        let next = try AgentQuerier(in: directory, lines: ["PID=\(getpid())", "Message=The next one"])
        #expect(await run.process.waitForScreen(containing: "The next one", deadline: .seconds(20)))
        await run.waitPastTheGrace()
        run.type("ok\r")
        #expect(await next.answer() == "+ok")
    }

    /// A request that arrives while the user answers another is said at once, as what waits ("1 more waiting:
    /// Backup passphrase."), and takes none of the field's keys; a readback says how many wait and for what,
    /// counted then; the next request's count is true.
    @Test func aRequestArrivingMidFieldIsSaidAsWhatWaitsAndReadBackWithTheQueue() async throws {
        let run = try await agent()
        let first = try AgentQuerier(in: directory, lines: ["PID=\(getpid())", "Message=First request"])
        #expect(await run.process.waitForScreen(containing: "First request", deadline: .seconds(20)))
        await run.waitPastTheGrace()
        run.type("abc")
        let second = try AgentQuerier(in: directory, lines: ["PID=\(getpid())", "Message=Backup passphrase"])
        #expect(await said(run, "1 more waiting: Backup passphrase."), "log: \(run.log.map(\.text))")
        #expect(run.process.screen.contains("1 more waiting: Backup passphrase."))
        // Readbacks only: the news line says the same.
        func readbacks(_ text: String) -> Int {
            run.log.filter { $0.event == "readback" && $0.text.contains(text) }.count
        }
        run.type([0x12])
        #expect(
            await run.process.wait(deadline: .seconds(20)) { _ in readbacks("1 more waiting: Backup passphrase.") == 1
            },
            "log: \(run.log.map(\.text))")
        let third = try AgentQuerier(in: directory, lines: ["PID=\(getpid())", "Message=Third one"])
        #expect(await said(run, "2 more waiting: Backup passphrase, Third one."), "log: \(run.log.map(\.text))")
        unlink(third.askPath)
        run.type([0x12])
        #expect(
            await run.process.wait(deadline: .seconds(20)) { _ in readbacks("1 more waiting: Backup passphrase.") == 2
            },
            "the withdrawn one is not counted: \(run.log.map(\.text))")
        run.type("def\r")
        #expect(await first.answer() == "+abcdef")
        #expect(await run.process.waitForScreen(containing: "Backup passphrase", deadline: .seconds(20)))
        let opening = run.log.last { $0.event == "prompt" }?.text ?? ""
        #expect(!opening.contains("more waiting"), "nothing else waits: \(opening)")
        await run.waitPastTheGrace()
        run.type([0x1B])
        #expect(await second.answer() == "-")
    }

    /// A key on the wait says what it did: nothing is there to answer.
    @Test func aKeyOnTheWaitSaysThereIsNothingToAnswer() async throws {
        let run = try await agent()
        await run.waitPastTheGrace()
        run.type("x")
        #expect(await said(run, "No request to answer. Escape stops the agent."))
        run.type("?")
        #expect(
            await run.process.wait(deadline: .seconds(20)) { _ in
                run.log.filter { $0.text.hasPrefix("Waiting for password requests") }.count == 2
            })
        #expect(!run.process.hasExited)
    }
}

/// Types `keys` one at a time, `every` apart, from a thread of its own: a listener's pace, kept however busy the
/// test runner's threads are. Returns the longest gap there was between two keys as they were sent.
/// Types `key` every `interval` until `until` holds (for a minute at most), then `then`; the longest gap between two keys.
func typePaced(
    _ run: PromptRun, _ key: String, every interval: Duration, until: @escaping (PromptRun) -> Bool, then: [UInt8]
) async -> Duration {
    // The test's task waits for the thread: the run is used by one of them at a time.
    nonisolated(unsafe) let run = run
    nonisolated(unsafe) let until = until
    return await withCheckedContinuation { continuation in
        Thread {
            let clock = ContinuousClock()
            let end = clock.now + .seconds(60)
            var last = clock.now
            var longest = Duration.zero
            run.type(key)
            while !until(run) && clock.now < end {
                usleep(UInt32(interval / .microseconds(1)))
                longest = max(longest, clock.now - last)
                last = clock.now
                run.type(key)
            }
            longest = max(longest, clock.now - last)
            run.type(then)
            continuation.resume(returning: longest)
        }.start()
    }
}

func typePaced(_ run: PromptRun, _ keys: String, every interval: Duration) async -> Duration {
    // The test's task waits for the thread: the run is used by one of them at a time.
    nonisolated(unsafe) let run = run
    return await withCheckedContinuation { continuation in
        Thread {
            let clock = ContinuousClock()
            var last = clock.now
            var longest = Duration.zero
            for (index, key) in keys.enumerated() {
                if index > 0 {
                    usleep(UInt32(interval / .microseconds(1)))
                    longest = max(longest, clock.now - last)
                }
                last = clock.now
                run.type(String(key))
            }
            continuation.resume(returning: longest)
        }.start()
    }
}
