import OTCPromptTestSupport
import Testing

/// `--cryptsetup`, as cryptroot runs the keyscript: the CRYPTTAB_* variables in the environment, stdout a pipe
/// to cryptsetup, which takes every byte as the key. (The whole boot, in QEMU: `make boot-test`.)
@Suite(.runsPrograms) struct CryptsetupEndToEndTests {
    private static func environment(tried: String) -> [String: String] {
        PromptRun.environment([
            "CRYPTTAB_NAME": "sda2_crypt", "CRYPTTAB_SOURCE": "/dev/sda2", "CRYPTTAB_TRIED": tried,
            "CRYPTTAB_KEY": "none",
        ])
    }

    @Test func thePassphraseIsWrittenAloneWithoutANewlineAndNeverShown() async throws {
        let run = try await PromptRun(
            ["--cryptsetup"], environment: Self.environment(tried: "0"), ready: "Unlock disk sda2")
        run.type("correct horse 7\r")
        #expect(await run.exit() == .exited(0))
        #expect(run.process.standardOutput == "correct horse 7", "the key exactly: no line break")
        #expect(!run.process.screen.contains("horse"))
        let spoken = await run.logEntries(atLeast: 2)
        #expect(spoken.first?.text.hasPrefix("Unlock disk sda2. Type it, then Enter.") == true)
        #expect(!spoken.contains { $0.text.contains("horse") })
        #expect(run.terminalRestored)
    }

    @Test func aRetrySaysTheNewsFirstOnScreenAndAloud() async throws {
        let run = try await PromptRun(
            ["--cryptsetup"], environment: Self.environment(tried: "1"), ready: "Unlock disk sda2")
        #expect(run.process.screen.contains("Wrong passphrase, try 2 of 3."))
        let opening = await run.logEntries(atLeast: 1).first?.text ?? ""
        #expect(opening.hasPrefix("Wrong passphrase, try 2 of 3. Unlock disk sda2"), "\(opening)")
        run.type([0x1B])
        #expect(await run.exit() == .exited(130))
        #expect(run.process.standardOutput == "")
    }

    /// `tried + 1` once overflowed here: SIGILL, the console left raw with bracketed paste on, and cryptroot's own
    /// askpass then asking on a raw console.
    @Test(arguments: ["9223372036854775807", "-1", "99999999999999999999999", "5", "two"])
    func aTryCountOutOfRangeIsSaidInOneLineAndTheFirstTryAsked(tried: String) async throws {
        let run = try await PromptRun(
            ["--cryptsetup"], environment: Self.environment(tried: tried), ready: "Unlock disk sda2")
        #expect(run.process.screen.contains("CRYPTTAB_TRIED="), "screen: \(run.process.screen)")
        #expect(!run.process.screen.contains("Wrong passphrase"), "a first try, never \"try 6 of 3\"")
        run.type("correct horse\r")
        #expect(await run.exit() == .exited(0))
        #expect(run.process.standardOutput == "correct horse")
        #expect(run.terminalRestored)
    }

    @Test func aTriesOptionOutOfRangeTakesCryptrootsDefault() async throws {
        var environment = Self.environment(tried: "1")
        environment["CRYPTTAB_OPTION_tries"] = "18446744073709551617"
        let run = try await PromptRun(["--cryptsetup"], environment: environment, ready: "Unlock disk sda2")
        #expect(run.process.screen.contains("Wrong passphrase, try 2 of 3."), "screen: \(run.process.screen)")
        #expect(run.process.screen.contains("CRYPTTAB_OPTION_tries="))
        run.type([0x1B])
        #expect(await run.exit() == .exited(130))
        #expect(run.terminalRestored)
    }

    /// cryptsetup reads the key from stdout: with stdout closed, or a pipe nobody reads, the passphrase was typed and
    /// then lost. Now the prompt never asks: one line, exit 74, and cryptroot asks again.
    @Test(arguments: ["closed", "no reader"])
    func anUnusableStandardOutputFailsBeforeAnythingIsAsked(stdout: String) async throws {
        let launcher =
            stdout == "closed"
            ? ["/bin/sh", "-c", "exec \"$0\" --cryptsetup --speech none >&-", PromptRun.binary]
            : [
                "/usr/bin/python3", "-c",
                "import os, sys\nr, w = os.pipe()\nos.close(r)\nos.dup2(w, 1)\nos.execv(sys.argv[1], sys.argv[1:])",
                PromptRun.binary, "--cryptsetup", "--speech", "none",
            ]
        let process = try PseudoTerminalProcess(
            executable: launcher[0], arguments: Array(launcher.dropFirst()),
            environment: Self.environment(tried: "0"))
        #expect(await process.waitForExit(deadline: .seconds(20)) == .exited(74), "screen: \(process.screen)")
        #expect(!process.screen.contains("Unlock disk"), "asked all the same: \(process.screen)")
        #expect(process.screen.contains("standard output"), "\(process.screen)")
        #expect(process.attributesAtStart.bytes == process.slaveAttributes().bytes)
    }
}
