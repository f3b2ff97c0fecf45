import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// A renewal the agent did not make: a fresh process naming its own PID in the hand-over variable, as any program
/// can (`sh -c 'exec env OTC_PROMPT_AGENT_RENEWAL=1:$$:… otc-prompt --agent'`). It once made the agent take a
/// cooked terminal for raw: a typed passphrase appeared on the screen, and was still sent. Each forgery here must
/// leave the terminal raw (no echo) and the agent working as if started afresh.
@Suite(.runsPrograms) struct AgentForgedRenewalEndToEndTests {
    let directory = AgentQuerier.directory()

    /// The attributes a hand-over would carry: all zero, which no terminal has.
    static let attributes = String(repeating: "00", count: MemoryLayout<termios>.size)

    /// A Python forger: a pipe holding `nonce` on descriptor 9 as the proof's would be, then an exec of the program
    /// under its own path with the variable naming its PID and that pipe.
    static let pipeForger = """
        import os, sys
        nonce = "0123456789abcdef0123456789abcdef"
        read, write = os.pipe()
        os.write(write, nonce.encode()); os.close(write)
        os.dup2(read, 9); os.set_inheritable(9, True)
        os.environ["OTC_PROMPT_AGENT_RENEWAL"] = "2:%d:-:0:1:%s:9.%s" % (os.getpid(), sys.argv[1], nonce)
        os.execv(sys.argv[2], sys.argv[2:])
        """

    enum Forgery: String, CaseIterable, CustomTestStringConvertible {
        /// The value of the report: the old format, the process's own PID, nothing else.
        case variableAlone
        /// The current format, naming a descriptor that is no pipe of a previous image's.
        case variableWithoutItsPipe
        /// The current format with a real pipe holding the nonce, but executed under the program's path.
        case pipeButNotAnExecOfItself
        var testDescription: String { rawValue }
    }

    private func start(_ forgery: Forgery, log: String) throws -> PseudoTerminalProcess {
        let agent = [
            PromptRun.binary, "--speech", "none", "--speech-log", log, "--agent", "--agent-directory", directory,
        ]
        let environment = PromptRun.environment()
        switch forgery {
        case .variableAlone, .variableWithoutItsPipe:
            let value =
                forgery == .variableAlone
                ? "1:$$:-:0:1:\(Self.attributes)" : "2:$$:-:0:1:\(Self.attributes):0.0123456789abcdef0123456789abcdef"
            return try PseudoTerminalProcess(
                executable: "/bin/sh",
                arguments: ["-c", "exec env OTC_PROMPT_AGENT_RENEWAL=\(value) \"$@\"", "sh"] + agent,
                environment: environment)
        case .pipeButNotAnExecOfItself:
            return try PseudoTerminalProcess(
                executable: "/usr/bin/python3", arguments: ["-c", Self.pipeForger, Self.attributes] + agent,
                environment: environment)
        }
    }

    @Test(arguments: Forgery.allCases)
    func aForgedRenewalLeavesTheTerminalRawAndAPassphraseUnseen(_ forgery: Forgery) async throws {
        let log = NSTemporaryDirectory() + "/otc-e2e-forged-\(UUID().uuidString).jsonl"
        defer { unlink(log) }
        let process = try start(forgery, log: log)
        defer { process.sendSignal(SIGKILL) }
        let before = process.attributesAtStart
        // Taken as no renewal: the agent starts afresh, drawing its wait (a renewal would take it as drawn).
        #expect(
            await process.waitForScreen(containing: "Waiting for password requests", deadline: .seconds(30)),
            "screen: \(process.screen)")
        let attributes = process.slaveAttributes()
        #expect(attributes.c_lflag & tcflag_t(ECHO | ICANON) == 0, "the terminal is not raw")
        let querier = try AgentQuerier(in: directory, lines: ["PID=\(getpid())", "Message=Passphrase for backup"])
        #expect(await process.waitForScreen(containing: "Passphrase for backup", deadline: .seconds(20)))
        try? await Task.sleep(for: .milliseconds(400))
        process.type("hunter2 horse\r")
        #expect(await querier.answer() == "+hunter2 horse")
        #expect(!visibleText(process.screen).contains("hunter2"), "echoed: \(process.screen)")
        process.sendSignal(SIGTERM)
        #expect(await process.waitForExit(deadline: .seconds(20)) == .signaled(SIGTERM))
        // Put back as it was found, not as the forged hand-over said (all zero).
        let after = process.slaveAttributes()
        #expect(after.c_lflag == before.c_lflag && after.c_iflag == before.c_iflag && after.c_oflag == before.c_oflag)
    }
}
