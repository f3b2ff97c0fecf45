import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// `--agent` answering the real systemd-ask-password (systemd 252 here), which writes its requests in
/// /run/systemd/ask-password and honours no other directory: each test has that directory to itself, in a mount
/// namespace of its own (`PrivateAskPassword`). Root only.
@Suite(
    .runsPrograms,
    .enabled(if: PrivateAskPassword.isAvailable, "needs root, systemd-ask-password and a mount namespace"))
struct AgentSystemdEndToEndTests {
    typealias Querier = PrivateAskPassword.Querier

    private func said(_ run: PromptRun, _ text: String, deadline: Duration = .seconds(20)) async -> Bool {
        await run.process.wait(deadline: deadline) { _ in run.log.contains { $0.text.contains(text) } }
    }

    @Test func aPassphraseReachesSystemdAskPassword() async throws {
        let run = try await PrivateAskPassword.agent()
        let querier = try Querier("Passphrase for backup", options: ["--id=cryptsetup:/dev/sda2"], namespaceOf: run)
        #expect(await run.process.waitForScreen(containing: "Passphrase for backup", deadline: .seconds(20)))
        #expect(await said(run, "For disk sda2.", deadline: .seconds(10)))
        await run.waitPastTheGrace()
        run.type("correct horse\r")
        let result = await querier.result()
        #expect(result?.output == "correct horse\n")
        #expect(result?.status == 0)
        // The querier removed its file, then closed it: that is no request, and the agent says it waits once.
        let next = try Querier("Next querier", namespaceOf: run)
        #expect(await run.process.waitForScreen(containing: "Next querier", deadline: .seconds(20)))
        let waits = run.log.filter { $0.text.contains("Waiting for password requests") }
        #expect(waits.count == 2, "\(waits)")
        await run.waitPastTheGrace()
        run.type([0x1B])
        #expect(await next.result() != nil)
    }

    @Test func severalQueriersOneTimingOutOneKilledWhileAsked() async throws {
        let run = try await PrivateAskPassword.agent()
        let first = try Querier("First querier", namespaceOf: run)
        #expect(await run.process.waitForScreen(containing: "First querier", deadline: .seconds(20)))
        let timed = try Querier("Timed querier", options: ["--timeout=3"], namespaceOf: run)
        let killed = try Querier("Killed querier", namespaceOf: run)
        // The first is answered; the timed one runs out while it waits or while it is asked.
        await run.waitPastTheGrace()
        run.type("one\r")
        #expect(await first.result()?.output == "one\n")
        #expect(await timed.result(deadline: .seconds(20))?.status != 0)
        #expect(await run.process.waitForScreen(containing: "Killed querier", deadline: .seconds(20)))
        // SIGKILL: its file and socket stay (in the private directory, gone with it), so only its process's end can
        // withdraw it.
        kill(killed.process.processID, SIGKILL)
        #expect(await said(run, "Request withdrawn."))
        #expect(
            await run.process.wait(deadline: .seconds(20)) { _ in
                run.log.last?.text.contains("Waiting for password requests") == true
            })
    }

    @Test func escCancelsSystemdAskPassword() async throws {
        let run = try await PrivateAskPassword.agent()
        let querier = try Querier("Cancel me", namespaceOf: run)
        #expect(await run.process.waitForScreen(containing: "Cancel me", deadline: .seconds(20)))
        await run.waitPastTheGrace()
        run.type([0x1B])
        let result = await querier.result()
        #expect(result != nil && result?.status != 0 && result?.output == "")
    }

    /// systemd 252 writes a message's line breaks raw: the lines after `Message=` have no `=`. Every line is shown
    /// and said, not the first alone.
    @Test func aMessageOnSeveralLinesIsShownAndSaidWhole() async throws {
        let run = try await PrivateAskPassword.agent()
        let querier = try Querier("First line.\nSecond line.\nPassphrase:", namespaceOf: run)
        #expect(await run.process.waitForScreen(containing: "Passphrase", deadline: .seconds(20)))
        #expect(run.process.screen.contains("First line.") && run.process.screen.contains("Second line."))
        let opening = run.log.last { $0.event == "prompt" }?.text ?? ""
        #expect(opening.contains("First line.") && opening.contains("Second line."), "\(opening)")
        #expect(!opening.contains("left out"), "nothing was left out: \(opening)")
        await run.waitPastTheGrace()
        run.type([0x1B])
        #expect(await querier.result() != nil)
    }

    /// Three requests a moment apart, each answered in turn: each said at once while another is answered, the
    /// count at each opening the truth (the last one: nothing more), and a readback names what waits.
    @Test func threeRequestsSayTrueCountsAndNewsOfEachOther() async throws {
        let run = try await PrivateAskPassword.agent()
        let first = try Querier("Request 1", namespaceOf: run)
        #expect(await run.process.waitForScreen(containing: "Request 1", deadline: .seconds(20)))
        let second = try Querier("Request 2", options: ["--id=cryptsetup:/dev/sdb1"], namespaceOf: run)
        #expect(await said(run, "1 more waiting: disk sdb1."), "log: \(run.log.map(\.text))")
        let third = try Querier("Request 3", namespaceOf: run)
        #expect(await said(run, "2 more waiting: disk sdb1, Request 3."), "log: \(run.log.map(\.text))")
        await run.waitPastTheGrace()
        run.type([0x12])
        #expect(await said(run, "2 more waiting: disk sdb1, Request 3."), "log: \(run.log.map(\.text))")
        for (querier, name, more) in [(first, "one", "1 more waiting."), (second, "two", "")] {
            run.type("\(name)\r")
            #expect(await querier.result()?.output == "\(name)\n")
            let next = name == "one" ? "Request 2" : "Request 3"
            #expect(await run.process.wait(deadline: .seconds(20)) { _ in run.log.last?.text.contains(next) == true })
            let opening = run.log.last?.text ?? ""
            if more.isEmpty {
                #expect(!opening.contains("more waiting"), "the last says nothing more waits: \(opening)")
            } else {
                #expect(opening.contains(more), "\(opening)")
            }
            await run.waitPastTheGrace()
        }
        run.type([0x1B])
        #expect(await third.result() != nil)
    }

    /// Another agent answers first (the test, on the request's socket): "Request withdrawn.", and an Esc pressed
    /// just after it, meant for that request, neither stops this agent nor reaches the next.
    @Test func anotherAgentAnsweringFirstIsAWithdrawalAndItsEscIsHeld() async throws {
        let run = try await PrivateAskPassword.agent()
        let querier = try Querier("Answered elsewhere", namespaceOf: run)
        #expect(await run.process.waitForScreen(containing: "Answered elsewhere", deadline: .seconds(20)))
        await run.waitPastTheGrace()
        run.type("ab")
        #expect(PrivateAskPassword.answer("Answered elsewhere", with: "+from the other agent", of: run))
        // Typing on at a listener's pace until the news is there, then Esc: within one key's gap of the news.
        let gap = await typePaced(
            run, "c", every: .milliseconds(200),
            until: { $0.log.contains { $0.text.contains("Request withdrawn.") } }, then: [0x1B])
        #expect(gap < .milliseconds(1500), "the test itself stalled between two keys: \(gap)")
        #expect(await querier.result()?.output == "from the other agent\n")
        #expect(await said(run, "keys were dropped."), "log: \(run.log.map(\.text))")
        #expect(!run.process.hasExited)
        let next = try Querier("After the other agent", namespaceOf: run)
        #expect(await run.process.waitForScreen(containing: "After the other agent", deadline: .seconds(20)))
        await run.waitPastTheGrace()
        run.type("mine\r")
        #expect(await next.result()?.output == "mine\n")
    }

    /// The screen says each thing once: after an answer the wait is drawn once, and the renewal that follows adopts
    /// the line it drew (systemd-ask-password's close after its unlink is no request, which drew it again).
    @Test(.enabled(if: PrivatePulseAudio.isInstalled, "needs pulseaudio, parec and sox (make deps)"))
    func afterAnAnswerTheWaitIsDrawnOnceAndTheRenewalAdoptsIt() async throws {
        try await VoicedAgent.run(in: PrivateAskPassword.directory, launcher: PrivateAskPassword.launcher) {
            run, trace in
            #expect(await VoicedAgent.renewed(run, trace))
            let querier = try Querier("Passphrase for backup", namespaceOf: run)
            #expect(await run.process.waitForScreen(containing: "Passphrase for backup", deadline: .seconds(20)))
            await run.waitPastTheGrace()
            run.type("pw\r")
            #expect(await querier.result()?.output == "pw\n")
            #expect(await VoicedAgent.renewed(run, trace, count: 2), "trace: \(trace.events)")
            let drawn = AgentIdleEndToEndTests.drawnWaits(run)
            #expect(drawn == 2, "the wait was drawn \(drawn) times: \(ScreenModel(run.process.screen).lines)")
            #expect(run.log.filter { $0.text.hasPrefix("Waiting for password requests") }.count == 2)
        }
    }
}
