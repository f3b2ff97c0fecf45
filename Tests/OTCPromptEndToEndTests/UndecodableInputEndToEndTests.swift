import Foundation
import OTCPromptTestSupport
import Testing

/// On a real pty: a byte the locale's charset cannot read (a Latin-1 `é`
/// from a terminal whose locale says ASCII or UTF-8) is never dropped silently from a secret. It is said,
/// with nothing of the secret, and the password is not submitted until the user has heard it.
@Suite(.runsPrograms, .serialized)
struct UndecodableInputEndToEndTests {
    @Test(arguments: ["C", "C.UTF-8"])
    func aPasswordThatLostACharacterIsNotSubmittedUnheard(locale: String) async throws {
        let run = try await PromptRun(
            ["--charset", "any", "Password"], environment: PromptRun.environment(["LANG": locale]), ready: "Password")
        run.type("caf")
        run.type([0xE9])
        #expect(await run.waitForEvent("unreadable"), "\(run.log)")
        #expect(await run.process.waitForScreen(containing: "could not be read", deadline: .seconds(5)))
        run.type("\r")
        // Heard first: the first Enter says the character is missing and submits nothing.
        #expect(
            await run.process.waitForScreen(containing: "is missing", deadline: .seconds(5)), "\(run.process.screen)")
        #expect(await run.process.waitForExit(deadline: .milliseconds(300)) == nil)
        run.type("\r")
        #expect(await run.exit() == .exited(0))
        #expect(run.process.standardOutput == "caf\n")
        // Masked: nothing of the secret on the screen or in the log, the notices included.
        let visible = visibleText(run.process.screen)
        #expect(!visible.contains("caf") && !visible.contains("é"))
        for entry in await run.logEntries() { #expect(!entry.text.contains("caf"), "\(entry)") }
        #expect(run.terminalRestored)
    }

    @Test func inACodeItIsSaidAndTheCodeStillSubmitsItself() async throws {
        let run = try await PromptRun([])
        run.type("12")
        run.type([0xFF])
        #expect(await run.waitForEvent("unreadable"))
        run.type("3456")
        #expect(await run.exit() == .exited(0))
        #expect(run.process.standardOutput == "123456\n")
    }
}
