import Foundation
import OTCPromptTestSupport
import Testing

/// Letters that could be heard as digits, through the built binary on a pty: the speech log holds what is said.
@Suite struct SpellingEndToEndTests {
    @Test func aLetterThatLooksLikeADigitIsSaidAsALetterAndTheDigitAsADigit() throws {
        let run = try PromptRun(["--charset", "alnum", "--length", "4"])
        run.type("O")
        #expect(run.waitForEvent("digit"))
        run.type("0")
        #expect(run.waitForEvent("digit", count: 2))
        run.type([0x12])
        #expect(run.waitForEvent("readback"))
        let said = run.logEntries().filter { $0.event != "prompt" }.map(\.text)
        #expect(said == ["letter O", "0", "letter O 0. 2 of 4"])
        run.type([0x03])
        #expect(run.exit() == .exited(130))
    }

    @Test func phoneticSpellingSaysTheAlphabetsWordsAndDigitsAsDigits() throws {
        let run = try PromptRun(["--charset", "alnum", "--spell", "phonetic"])
        run.type("o")
        #expect(run.waitForEvent("digit"))
        run.type("0")
        #expect(run.waitForEvent("digit", count: 2))
        run.type("k7z")
        #expect(run.waitForEvent("digit", count: 5))
        run.type([0x12])
        #expect(run.waitForEvent("readback"))
        let said = run.logEntries().filter { $0.event != "prompt" }.map(\.text)
        #expect(said == ["Oscar", "0", "Kilo", "7", "Zulu", "Oscar 0 Kilo, 7 Zulu. 5 of 6"])
        run.type("1")
        #expect(run.exit() == .exited(0))
        #expect(run.process.standardOutput == "O0K7Z1\n")
    }

    /// A preference: gpg-agent and sudo pass no options, so the config file sets it too.
    @Test func theConfigFileChoosesPhoneticSpelling() throws {
        let path = NSTemporaryDirectory() + "/otc-config-\(UUID().uuidString)"
        try "spell = \"phonetic\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try PromptRun(
            ["--charset", "alnum", "--length", "2"], environment: PromptRun.environment(["OTC_PROMPT_CONFIG": path]))
        run.type("b8")
        #expect(run.exit() == .exited(0))
        let said = run.logEntries().filter { $0.event != "prompt" }.map(\.text)
        #expect(said.first == "Bravo", "\(said)")
    }
}
