import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// An explicit `--braille brlapi` that cannot be honoured says so once, on the screen and by voice, with the reason;
/// `auto` stays silent, as a display nobody asked for by name is no news.
@Suite(.runsPrograms)
struct BrailleNotHonouredEndToEndTests {
    static let notice = "Braille display not used, though --braille brlapi asks for it"

    /// The prompt with `--braille CHOICE`, its field shown; what it showed and said.
    private func opening(_ choice: String, environment: [String: String]) async throws -> (
        screen: String, said: String
    ) {
        let run = try await PromptRun(["--braille", choice], environment: PromptRun.environment(environment))
        let said = await run.logEntries(atLeast: 1).map(\.text).joined(separator: "\n")
        let screen = visibleText(run.process.screen)
        run.type([0x1B])
        #expect(await run.exit() == .exited(130))
        return (screen, said)
    }

    @Test func noServerIsSaidWithItsAddressAndAutoSaysNothing() async throws {
        // A port of 127.0.0.1 where nothing listens (BrlAPI's 4101 + 77).
        let environment = ["BRLAPI_HOST": "127.0.0.1:77", "BRLAPI_AUTH": "none"]
        let asked = try await opening("brlapi", environment: environment)
        let reason = "no BrlAPI server answers at 127.0.0.1 port 4178"
        #expect(asked.screen.components(separatedBy: Self.notice).count == 2, "once: \(asked.screen)")
        #expect(
            asked.screen.split(whereSeparator: \.isWhitespace).joined(separator: " ").contains(reason),
            "\(asked.screen)")
        #expect(asked.said.contains(Self.notice + ": " + reason), "\(asked.said)")
        let auto = try await opening("auto", environment: environment)
        #expect(!auto.screen.contains("Braille") && !auto.said.contains("Braille"), "\(auto.screen) \(auto.said)")
    }

    @Test(.enabled(if: PrivateBrltty.isInstalled, "needs brltty (its Virtual driver) and libbrlapi0.8"))
    func aTerminalBrlttyWouldNotShowIsSaid() async throws {
        let brltty = try #require(PrivateBrltty.start(), "brltty did not start")
        defer { brltty.stop() }
        var environment = brltty.clientEnvironment
        environment["WINDOWPATH"] = nil
        let asked = try await opening("brlapi", environment: environment)
        #expect(asked.said.contains(Self.notice + ": the terminal is no virtual console"), "\(asked.said)")
        #expect(asked.screen.contains(Self.notice), "\(asked.screen)")
    }

    @Test(.enabled(if: PrivateBrltty.isInstalled, "needs brltty (its Virtual driver) and libbrlapi0.8"))
    func anotherUsersServerIsSaidRefused() async throws {
        let brltty = try #require(PrivateBrltty.start(user: 65534, localSocket: false), "brltty did not start")
        defer { brltty.stop() }
        let asked = try await opening("brlapi", environment: brltty.clientEnvironment)
        #expect(asked.said.contains(Self.notice + ": the BrlAPI server at"), "\(asked.said)")
        #expect(asked.said.contains("runs as uid 65534, not as you"), "\(asked.said)")
    }
}
