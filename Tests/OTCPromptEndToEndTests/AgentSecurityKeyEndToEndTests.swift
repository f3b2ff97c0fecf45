import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// At boot, systemd-cryptsetup asks for a FIDO2 security key's PIN in words that name no disk, then waits for the
/// key to be touched, saying nothing. The agent names the disk from its asker's command line and says "Touch your
/// security key." the moment the PIN has been sent.
@Suite(.runsPrograms) struct AgentSecurityKeyEndToEndTests {
    @Test(.enabled(if: getuid() == 0, "a request directory of root's, whose requests are the system's"))
    func aFIDO2PINIsAskedForItsDiskAndTouchIsSaidTheMomentItIsSent() async throws {
        let directory = AgentQuerier.directory()
        // An asker whose command line is systemd-cryptsetup's, as /proc shows it: sh running a script named attach.
        let scripts = PromptRun.privateDirectory()
        // It waits in sh itself (a read of a FIFO it holds open both ways), so that killing it leaves no child behind.
        try #require(mkfifo(scripts + "/hold", 0o600) == 0)
        try "read x 0<> hold\n".write(toFile: scripts + "/attach", atomically: false, encoding: .utf8)
        let asker = try SpawnedProgram(
            "/bin/bash",
            ["-c", "cd '\(scripts)' && exec -a systemd-cryptsetup /bin/sh attach root /dev/vda2 - fido2-device=auto"],
            environment: ["PATH": "/usr/bin:/bin"])
        defer { asker.terminate(SIGKILL) }
        let shown = ContinuousClock().now + .seconds(10)
        while (try? String(contentsOfFile: "/proc/\(asker.processID)/cmdline", encoding: .utf8))?.hasPrefix(
            "systemd-cryptsetup\0attach") != true, ContinuousClock().now < shown
        {
            try await Task.sleep(for: .milliseconds(5))
        }
        let run = try await PromptRun(
            ["--agent", "--agent-directory", directory], ready: "Waiting for password requests")
        let querier = try AgentQuerier(
            in: directory, lines: ["PID=\(asker.processID)", "Echo=0", "Message=Please enter security token PIN:"])
        #expect(
            await run.process.waitForScreen(containing: "Security key PIN for disk root", deadline: .seconds(20)),
            "screen: \(run.process.screen)")
        await run.waitPastTheGrace()
        run.type("123456\r")
        #expect(await querier.answer() == "+123456")
        #expect(
            await run.process.wait(deadline: .seconds(20)) { _ in
                run.log.contains { $0.text.contains("Touch your security key.") }
            }, "said: \(run.log.map(\.text))")
        // Said as the wait's first words, before "Waiting for password requests.", and never before the answer.
        let texts = run.log.map(\.text)
        let touch = try #require(texts.firstIndex { $0.contains("Touch your security key.") })
        let question = try #require(texts.firstIndex { $0.contains("Security key PIN for disk root") })
        #expect(question < touch)
        #expect(texts[touch].hasPrefix("Touch your security key."), "\(texts[touch])")
        #expect(!run.process.screen.contains("123456") && !texts.contains { $0.contains("123456") })
        run.process.sendSignal(SIGTERM)
        #expect(await run.exit() == .signaled(SIGTERM))
    }
}
