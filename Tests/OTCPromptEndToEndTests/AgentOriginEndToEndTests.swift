import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// `--agent` run by a user who is not root (nobody, through setpriv), watching that user's own directory: a
/// request there may claim anything, so what its `Id=` claims is said as a program's claim, never in the system's
/// words ("For disk sda2."), which only a request from a directory of root's may bring.
@Suite(.runsPrograms) struct AgentOriginEndToEndTests {
    static let nobody: uid_t = 65534

    @Test(.enabled(if: getuid() == 0, "setpriv and chown need root"))
    func aPerUserRequestClaimingADiskIsNotSaidAsTheSystemsDisk() async throws {
        // Under /tmp (sticky, root's) a directory of root's that nobody may only pass through, and in it nobody's
        // own: the request directory, and a home for the speech log.
        var template = Array("/tmp/otc-e2e-origin-XXXXXX".utf8CString)
        let made = try #require(template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) })
        let parent = String(cString: made)
        defer { try? FileManager.default.removeItem(atPath: parent) }
        try #require(chmod(parent, 0o711) == 0)
        let directory = parent + "/ask"
        let home = parent + "/home"
        for path in [directory, home] {
            try #require(mkdir(path, 0o700) == 0 && chown(path, Self.nobody, Self.nobody) == 0)
        }
        let querier = try AgentQuerier(
            in: directory, lines: ["Message=Passphrase to unlock", "Id=cryptsetup:/dev/sda2"])
        // As nobody's own program would have made them; before the agent starts, so it never sees them root's.
        try #require(
            chown(querier.socketPath, Self.nobody, Self.nobody) == 0
                && chown(querier.askPath, Self.nobody, Self.nobody) == 0)
        let log = home + "/speech.jsonl"
        let process = try PseudoTerminalProcess(
            executable: "/usr/bin/setpriv",
            arguments: [
                "--reuid=\(Self.nobody)", "--regid=\(Self.nobody)", "--clear-groups", "--", PromptRun.binary,
                "--speech", "none", "--speech-log", log, "--agent", "--agent-directory", directory,
            ],
            environment: PromptRun.environment(["HOME": home, "XDG_RUNTIME_DIR": home]))
        defer { process.sendSignal(SIGTERM) }
        let spoken = { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        #expect(
            await process.waitForScreen(containing: "Passphrase to unlock", deadline: .seconds(30)),
            "screen: \(process.screen)")
        #expect(
            await process.wait(deadline: .seconds(20)) { _ in
                spoken().contains("Not from the system: a program of yours says this is for disk sda2.")
            }, "said: \(spoken())")
        #expect(!spoken().contains("For disk") && !process.screen.contains("For disk"))
        // Still a request like any other: its answer reaches it.
        await process.waitPastTheGrace()
        process.type([0x1B])
        #expect(await querier.answer() == "-")
    }
}
