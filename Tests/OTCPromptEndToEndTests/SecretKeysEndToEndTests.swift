import OTCPromptTestSupport
import Testing

/// Every key in a secret is either kept or said: a Tab is kept in a disk's passphrase and an askpass password
/// (cryptsetup's own askpass and sudo keep it), and a key that types nothing (an arrow) is said, never dropped
/// unsaid.
@Suite(.runsPrograms) struct SecretKeysEndToEndTests {
    @Test func aTabIsKeptInADisksPassphraseAndAnArrowIsSaid() async throws {
        let run = try await PromptRun(
            ["--cryptsetup"],
            environment: PromptRun.environment([
                "CRYPTTAB_NAME": "sda2_crypt", "CRYPTTAB_SOURCE": "/dev/sda2", "CRYPTTAB_TRIED": "0",
                "CRYPTTAB_KEY": "none",
            ]), ready: "Unlock disk sda2")
        run.type("ab\tcd")
        run.type([0x1B, 0x5B, 0x41])
        #expect(
            await run.process.wait(deadline: .seconds(20)) { _ in run.log.contains { $0.text == "Key not typed." } })
        run.type("\r")
        #expect(await run.exit() == .exited(0))
        #expect(run.process.standardOutput == "ab\tcd", "the key exactly, its Tab kept")
        #expect(run.log.filter { $0.event == "digit" }.count == 5, "the Tab counted as any character")
    }

    @Test func aTabIsKeptInAnAskpassPassword() async throws {
        let run = try await PromptRun(["--askpass", "--", "[sudo] password for joe: "], ready: "password for joe")
        await run.waitPastTheGrace()
        run.type("ab\tcd\r")
        #expect(await run.exit() == .exited(0))
        #expect(run.process.standardOutput == "ab\tcd\n")
    }
}
