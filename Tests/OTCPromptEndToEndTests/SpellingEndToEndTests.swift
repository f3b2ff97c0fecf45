import Foundation
import OTCPromptTestSupport
import Testing

/// Letters that could be heard as digits, through the built binary on a pty: the speech log holds what is said.
@Suite(.runsPrograms) struct SpellingEndToEndTests {
    @Test func aLetterThatLooksLikeADigitIsSaidAsALetterAndTheDigitAsADigit() async throws {
        let run = try await PromptRun(["--charset", "alnum", "--length", "4"])
        run.type("O")
        #expect(await run.waitForEvent("digit"))
        run.type("0")
        #expect(await run.waitForEvent("digit", count: 2))
        run.type([0x12])
        #expect(await run.waitForEvent("readback"))
        let said = run.log.filter { $0.event != "prompt" }.map(\.text)
        #expect(said == ["letter O", "0", "letter O 0. 2 of 4"])
        run.type([0x03])
        #expect(await run.exit() == .exited(130))
    }

    @Test func phoneticSpellingSaysTheAlphabetsWordsAndDigitsAsDigits() async throws {
        let run = try await PromptRun(["--charset", "alnum", "--spell", "phonetic"])
        run.type("o")
        #expect(await run.waitForEvent("digit"))
        run.type("0")
        #expect(await run.waitForEvent("digit", count: 2))
        run.type("k7z")
        #expect(await run.waitForEvent("digit", count: 5))
        run.type([0x12])
        #expect(await run.waitForEvent("readback"))
        let said = run.log.filter { $0.event != "prompt" }.map(\.text)
        #expect(said == ["Oscar", "0", "Kilo", "7", "Zulu", "Oscar 0 Kilo, 7 Zulu. 5 of 6"])
        run.type("1")
        #expect(await run.exit() == .exited(0))
        #expect(run.process.standardOutput == "O0K7Z1\n")
    }

    /// A preference: gpg-agent and sudo pass no options, so the config file sets it too.
    @Test func theConfigFileChoosesPhoneticSpelling() async throws {
        let path = NSTemporaryDirectory() + "/otc-config-\(UUID().uuidString)"
        try "spell = \"phonetic\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try await PromptRun(
            ["--charset", "alnum", "--length", "2"], environment: PromptRun.environment(["OTC_PROMPT_CONFIG": path]))
        run.type("b8")
        #expect(await run.exit() == .exited(0))
        let said = run.log.filter { $0.event != "prompt" }.map(\.text)
        #expect(said.first == "Bravo", "\(said)")
    }
}
