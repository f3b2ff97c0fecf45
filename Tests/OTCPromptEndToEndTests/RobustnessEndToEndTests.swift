import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// Signals, job control, huge pastes and a closed stdout: the terminal is always restored.
@Suite(.serialized)
struct RobustnessEndToEndTests {
    @Test(arguments: [SIGINT, SIGTERM, SIGHUP, SIGQUIT])
    func signalRestoresTheTerminalAndEndsWithThatSignal(signal: Int32) throws {
        let run = try PromptRun([])
        run.type("12")
        #expect(run.waitForEvent("digit"))
        run.process.sendSignal(signal)
        #expect(run.exit() == .signaled(signal))
        #expect(run.terminalRestored)
        #expect(run.process.standardOutput == "")
        #expect(run.process.screen.hasSuffix("\u{1b}[?2004l") || run.process.screen.contains("\u{1b}[?2004l"))
    }

    @Test func controlZStopsWithTheTerminalRestoredAndContinueResumes() throws {
        let logPath = NSTemporaryDirectory() + "/otc-e2e-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: logPath) }
        let process = try PseudoTerminalProcess(
            executable: PromptRun.binary, arguments: ["--speech", "none", "--speech-log", logPath],
            environment: PromptRun.environment(), jobControl: true)
        #expect(process.waitForScreen(containing: "Verification code", deadline: .seconds(10)))
        process.type("98")
        process.type([0x1A])
        #expect(process.waitForScreen(containing: "[stopped]", deadline: .seconds(10)))
        let whileStopped = process.slaveAttributes()
        #expect(whileStopped.c_lflag & tcflag_t(ICANON) != 0, "the terminal must be back in cooked mode while stopped")
        #expect(whileStopped.c_lflag & tcflag_t(ECHO) != 0)
        process.type("\r")
        let log = { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }
        let clock = ContinuousClock()
        let end = clock.now + .seconds(10)
        while log().components(separatedBy: "\"prompt\"").count < 3, clock.now < end { usleep(20_000) }
        #expect(log().components(separatedBy: "\"prompt\"").count == 3, "re-announced after the resume: \(log())")
        process.type("5391")
        #expect(process.waitForExit(deadline: .seconds(10)) == .exited(0))
        #expect(process.standardOutput == "985391\n")
        #expect(sameAttributes(process.attributesAtStart, process.slaveAttributes()))
    }

    @Test func tenMegabytePasteThenTypedDigitsStillCount() throws {
        let run = try PromptRun([])
        var paste = Array("\u{1b}[200~".utf8)
        paste += [UInt8](repeating: UInt8(ascii: "x"), count: 10_000_000)
        paste += Array("\u{1b}[201~".utf8)
        #expect(run.process.type(paste, deadline: .seconds(30)))
        #expect(run.waitForEvent("reject", deadline: .seconds(20)))
        run.type("123456")
        #expect(run.exit(deadline: .seconds(20)) == .exited(0))
        #expect(run.process.standardOutput == "123456\n")
    }

    @Test func garbageBytesChangeNothingAndNeverCrash() throws {
        let run = try PromptRun([])
        var random = SeededRandom(seed: 42)
        var garbage: [UInt8] = (0..<4000).map { _ in UInt8.random(in: 0...255, using: &random) }
        // Keep only bytes that cannot end the prompt or edit the field on their own.
        garbage = garbage.filter {
            ![0x03, 0x04, 0x0A, 0x0D, 0x15, 0x08, 0x7F, 0x1A, 0x1B].contains($0) && !(0x30...0x39).contains($0)
        }
        run.type(garbage)
        run.type("\u{1b}[1;5")  // a truncated sequence, completed by nothing
        run.type("A")
        run.type("123456")
        #expect(run.exit(deadline: .seconds(10)) == .exited(0))
        #expect(run.process.standardOutput == "123456\n")
        #expect(run.terminalRestored)
    }

    @Test func closedStdoutGivesOneClearLineAndAFailure() throws {
        let process = try PseudoTerminalProcess(
            executable: "/bin/sh", arguments: ["-c", "exec \"$0\" --speech none >&-", PromptRun.binary],
            environment: PromptRun.environment())
        #expect(process.waitForScreen(containing: "Verification code", deadline: .seconds(10)))
        process.type("123456")
        #expect(process.waitForExit(deadline: .seconds(10)) == .exited(74))
        #expect(process.screen.contains("otc-prompt: "))
        #expect(!visibleText(process.screen).contains("123456\n"))
        #expect(sameAttributes(process.attributesAtStart, process.slaveAttributes()))
    }
}
