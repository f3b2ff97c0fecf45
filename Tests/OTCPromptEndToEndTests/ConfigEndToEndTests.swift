import Foundation
import OTCPromptTestSupport
import Testing

/// A wrong configuration file degrades to the defaults with a notice; only the command line is fatal.
@Suite(.runsPrograms) struct ConfigEndToEndTests {
    /// A config file holding `text`, removed when `body` returns.
    private func withConfig<T>(_ text: String, _ body: ([String: String]) async throws -> T) async throws -> T {
        let path = NSTemporaryDirectory() + "/otc-config-\(UUID().uuidString)"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try await body(PromptRun.environment(["OTC_PROMPT_CONFIG": path]))
    }

    @Test func aVoiceTheFileNamesButIsNotInstalledFallsBackToTheLanguagesVoice() async throws {
        try await withConfig("rate = 300\nvoice = \"zz-nonexistent\"\n") { environment in
            let run = try await PromptRun([], environment: environment, speech: "espeak")
            #expect(
                await run.process.waitForScreen(
                    containing: "voice 'zz-nonexistent' is not installed", deadline: .seconds(5)))
            #expect(run.process.screen.contains(":2: voice 'zz-nonexistent'"))
            run.type("123456")
            #expect(await run.exit() == .exited(0))
            #expect(run.process.standardOutput == "123456\n")
        }
    }

    @Test func aVoiceTheCommandLineNamesIsStillAUsageError() async throws {
        try await withConfig("voice = \"en-us\"\n") { environment in
            let run = try await PromptRun(
                ["--voice", "zz-nonexistent"], environment: environment, speech: "espeak", ready: nil)
            #expect(await run.exit() == .exited(64))
            #expect(run.process.screen.contains("unknown voice 'zz-nonexistent'"))
            #expect(run.terminalRestored)
        }
    }

    @Test(arguments: [
        ("rate = 1000\n", ":1: rate must be a number from 80 to 450, not 1000; ignored"),
        ("\nspeech = 3\n", ":2: speech must be"),
        ("\n\ncolour = \"red\"\n", ":3: unknown setting \"colour\""),
        ("rate = = 3\nverbosity = \"terse\"\n", ":1: rate = =: write"),
    ])
    func aBadValueInTheFileIsReportedWithItsLineAndThePromptGoesOn(text: String, notice: String) async throws {
        try await withConfig(text) { environment in
            let run = try await PromptRun([], environment: environment)
            // Said with the opening, so wrapped to the terminal's width like its other lines.
            let clock = ContinuousClock()
            let end = clock.now + .seconds(5)
            while !Self.flat(run.process.screen).contains(notice) && clock.now < end {
                _ = await run.process.waitForScreen(containing: "\u{0}never", deadline: .milliseconds(20))
            }
            #expect(Self.flat(run.process.screen).contains(notice), "\(run.process.screen)")
            run.type("123456")
            #expect(await run.exit() == .exited(0))
            #expect(run.process.standardOutput == "123456\n")
        }
    }

    @Test(arguments: [["--rate", "1000"], ["--speech", "loud"], ["--timeout", "0.0001"], ["--length", "13"]])
    func aBadCommandLineValueIsAUsageError(arguments: [String]) async throws {
        let run = try await PromptRun(arguments, ready: nil)
        #expect(await run.exit() == .exited(64))
        #expect(run.process.screen.contains("'\(arguments[1])' is invalid for '\(arguments[0])"))
    }

    /// With almost no file descriptors espeak-ng cannot open its voice files: say so, not "unknown voice".
    static func flat(_ screen: String) -> String {
        screen.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    @Test func runningOutOfFileDescriptorsIsNotBlamedOnTheVoice() async throws {
        let process = try PseudoTerminalProcess(
            executable: "/bin/sh", arguments: ["-c", "ulimit -n 10; exec \"$0\" --speech espeak", PromptRun.binary],
            environment: PromptRun.environment())
        let shown = await process.waitForScreen(containing: "Too many open files", deadline: .seconds(10))
        #expect(shown, "\(process.screen)")
        #expect(!process.screen.contains("unknown voice"))
        process.type("\u{1B}")
        #expect(await process.waitForExit(deadline: .seconds(10)) != nil)
    }
}
