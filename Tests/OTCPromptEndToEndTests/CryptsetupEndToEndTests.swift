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
}
