// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptTestSupport
import Testing

private let shellEnvironment = ["PATH": "/usr/bin:/bin", "TERM": "xterm"]

/// The harness every end-to-end test relies on, checked with /bin/sh.
@Suite(.runsPrograms) struct PseudoTerminalHarnessTests {
    @Test func typedLineReachesTheChildAndStdoutIsCapturedApartFromTheScreen() throws {
        let child = try PseudoTerminalProcess(
            executable: "/bin/sh", arguments: ["-c", "printf 'Code: ' >&2; read x; echo got $x"],
            environment: shellEnvironment)
        #expect(child.waitForScreen(containing: "Code: ", deadline: .seconds(10)))
        #expect(child.type("123456\r"))
        #expect(child.waitForExit(deadline: .seconds(10)) == .exited(0))
        #expect(child.standardOutput == "got 123456\n")
        #expect(child.screen.contains("123456"), "the pty echoed what was typed")
        #expect(!child.screen.contains("got"), "stdout is not the terminal")
    }

    @Test func thePtyIsTheControllingTerminal() throws {
        let child = try PseudoTerminalProcess(
            executable: "/bin/sh", arguments: ["-c", "tty; echo via-dev-tty > /dev/tty"],
            environment: shellEnvironment)
        #expect(child.waitForExit(deadline: .seconds(10)) == .exited(0))
        #expect(child.standardOutput == "\(child.terminal!.slaveName)\n")
        #expect(child.screen.contains("via-dev-tty"), "opening /dev/tty needs a controlling terminal")
    }

    @Test func theChildStartsWithDefaultSignalsAndAnEmptyMask() throws {
        signal(SIGPIPE, SIG_IGN)  // as the test process may have; the child must not inherit it
        let child = try PseudoTerminalProcess(
            executable: "/bin/sh", arguments: ["-c", "grep -E '^Sig(Blk|Ign)' /proc/self/status"],
            environment: shellEnvironment)
        #expect(child.waitForExit(deadline: .seconds(10)) == .exited(0))
        let masks = child.standardOutput.split(separator: "\n").map { line in
            UInt64(line.split(separator: "\t").last ?? "", radix: 16)
        }
        // glibc's own signals 32 and 33 are out of posix_spawn's reach (and of any program's).
        let glibcInternal: UInt64 = 0x1_8000_0000
        #expect(masks.count == 2)
        #expect(masks.first.flatMap { $0 } == 0, "nothing blocked")
        #expect(masks.last.flatMap { $0.map { $0 & ~glibcInternal } } == 0, "nothing ignored")
    }

    @Test func withoutATerminalThereIsNoControllingTerminal() throws {
        let child = try PseudoTerminalProcess(
            executable: "/bin/sh", arguments: ["-c", "tty; true </dev/tty || exit 74"],
            environment: shellEnvironment, terminal: false)
        #expect(child.waitForExit(deadline: .seconds(10)) == .exited(74))
        #expect(child.standardOutput == "not a tty\n")
        #expect(!child.standardErrorText.isEmpty, "sh says why /dev/tty failed")
        #expect(child.screen.isEmpty)
    }

    @Test func stderrCanBeAPipe() throws {
        let child = try PseudoTerminalProcess(
            executable: "/bin/sh", arguments: ["-c", "echo oops >&2; echo ok"],
            environment: shellEnvironment, standardError: .pipe)
        #expect(child.waitForExit(deadline: .seconds(10)) == .exited(0))
        #expect(child.standardErrorText == "oops\n")
        #expect(child.standardOutput == "ok\n")
        #expect(!child.screen.contains("oops"))
    }

    @Test func windowSizeIsSetAndResizable() throws {
        let child = try PseudoTerminalProcess(
            executable: "/bin/sh", arguments: ["-c", "stty size; read x; stty size"],
            environment: shellEnvironment, columns: 100, rows: 30)
        #expect(child.waitForStandardOutput(containing: "30 100\n", deadline: .seconds(10)))
        child.resize(columns: 40, rows: 10)
        #expect(child.type("\r"))
        #expect(child.waitForExit(deadline: .seconds(10)) == .exited(0))
        #expect(child.standardOutput == "30 100\n10 40\n")
    }

    @Test func signalsAndExitStatusesAreReported() throws {
        let child = try PseudoTerminalProcess(
            executable: "/bin/sh", arguments: ["-c", "echo ready; read x"], environment: shellEnvironment)
        #expect(child.waitForExit(deadline: .milliseconds(100)) == nil, "still waiting for input")
        child.sendSignal(SIGTERM)
        #expect(child.waitForExit(deadline: .seconds(10)) == .signaled(SIGTERM))
        #expect(child.standardOutput == "ready\n")
    }

    @Test func theTerminalAttributesCanBeComparedBeforeAndAfter() throws {
        let child = try PseudoTerminalProcess(
            executable: "/bin/sh", arguments: ["-c", "stty -echo; read x; stty echo"], environment: shellEnvironment)
        let before = child.attributesAtStart
        var changed = false
        let clock = ContinuousClock()
        let end = clock.now.advanced(by: .seconds(10))
        while !changed && clock.now < end {
            changed = child.slaveAttributes().c_lflag & tcflag_t(ECHO) == 0
            if !changed { usleep(10_000) }
        }
        #expect(changed, "the harness sees the child's stty -echo")
        #expect(child.type("secret\r"))
        #expect(child.waitForExit(deadline: .seconds(10)) == .exited(0))
        #expect(child.slaveAttributes().bytes == before.bytes)
        #expect(!child.screen.contains("secret"))
    }

    @Test func aLargePasteDoesNotDeadlockTheHarness() throws {
        // A megabyte is far more than the pty buffers: typing must wait for the child, with a deadline.
        let child = try PseudoTerminalProcess(
            executable: "/bin/sh", arguments: ["-c", "stty raw -echo; head -c 1000000 >/dev/null; echo done"],
            environment: shellEnvironment)
        var raw = false
        let clock = ContinuousClock()
        let end = clock.now.advanced(by: .seconds(10))
        while !raw && clock.now < end {
            raw = child.slaveAttributes().c_lflag & tcflag_t(ICANON) == 0
            if !raw { usleep(10_000) }
        }
        #expect(child.type([UInt8](repeating: 0x37, count: 1_000_000), deadline: .seconds(30)))
        #expect(child.waitForExit(deadline: .seconds(10)) == .exited(0))
        #expect(child.standardOutput == "done\n")
    }

    @Test func stdinCanBeNullWhileThePtyStaysTheControllingTerminal() throws {
        let child = try PseudoTerminalProcess(
            executable: "/bin/sh", arguments: ["-c", "tty; read x </dev/tty; echo got $x"],
            environment: shellEnvironment, standardInput: .nullDevice)
        #expect(child.type("42\r"))
        #expect(child.waitForExit(deadline: .seconds(10)) == .exited(0))
        #expect(child.standardOutput == "not a tty\ngot 42\n")
    }

    @Test func underJobControlAStopReallyStopsAndTheTestResumesIt() throws {
        let child = try PseudoTerminalProcess(
            executable: "/bin/sh", arguments: ["-c", "echo before; kill -TSTP $$; echo after; exit 7"],
            environment: shellEnvironment, jobControl: true)
        #expect(child.waitForScreen(containing: "[stopped]", deadline: .seconds(10)))
        #expect(child.standardOutput == "before\n", "stopped before printing after")
        #expect(child.type("\r"))
        #expect(child.waitForExit(deadline: .seconds(10)) == .exited(7))
        #expect(child.standardOutput == "before\nafter\n")
    }

    @Test func aMissingExecutableThrows() {
        #expect(throws: PseudoTerminalError.self) {
            try PseudoTerminalProcess(executable: "/nonexistent/otc-prompt")
        }
    }
}
