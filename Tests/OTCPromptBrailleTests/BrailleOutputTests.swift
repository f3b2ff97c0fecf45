import Foundation
import Glibc
import OTCPromptCore
import OTCPromptTestSupport
import Testing

@testable import OTCPromptBraille

/// `BrailleOutput` against a real brltty whose Virtual driver is the test's display: what it writes, the keys it
/// hands back, the panning, and the display given back.
@Suite(
    .runsPrograms,
    .enabled(
        if: PrivateBrltty.isInstalled,
        "needs brltty (its Virtual driver), libbrlapi0.8 and setpriv: apt-get install brltty libbrlapi0.8"))
struct BrailleOutputTests {
    /// The person at this machine, as the voice's route would have found them.
    private let here = SessionLocation(.local, evidence: "the test's own terminal")

    private func code(_ typed: String, news: String? = nil) -> SessionView {
        SessionView(
            label: "Verification code: ", field: .characters(Array(typed)), cursor: typed.count, news: news)
    }

    @Test func aViewIsWrittenWithTheCursorWhereTheNextCharacterGoes() async throws {
        let brltty = try #require(PrivateBrltty.start(), "brltty did not start")
        defer { brltty.stop() }
        let output = try #require(BrailleOutput.start(.auto, location: here, environment: brltty.clientEnvironment, terminal: -1))
        defer { output.close() }
        output.present(code("12"))
        let frame = await brltty.display.wait { $0.trimmed == "Verification code: 12" && $0.cursor == 21 }
        #expect(frame != nil, "\(String(describing: brltty.display.frame)) \(brltty.log)")
    }

    @Test func keysTypedOnTheDisplayComeBackAsTheTerminalsKeysAndRoutingKeysStayBrlttys() async throws {
        let brltty = try #require(PrivateBrltty.start(), "brltty did not start")
        defer { brltty.stop() }
        let output = try #require(BrailleOutput.start(.auto, location: here, environment: brltty.clientEnvironment, terminal: -1))
        defer { output.close() }
        output.present(code(""))
        #expect(await brltty.display.wait(forText: "Verification code:") != nil)
        // Dots 1, 1-2-3, a routing key, then Backspace, Enter, Escape.
        for command in ["PASSDOTS 1", "PASSDOTS 7", "ROUTE 3", "KEY_BACKSPACE", "KEY_ENTER", "KEY_ESCAPE"] {
            brltty.display.send(command)
        }
        var keys: [Key] = []
        let clock = ContinuousClock()
        let end = clock.now + .seconds(10)
        while keys.count < 5 && clock.now < end {
            keys += output.takeKeys()
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(keys == [.character("a"), .character("l"), .backspace, .submit, .escape])
        // A key the prompt does not take is brltty's: its help screen takes the display, and gives it back.
        brltty.display.send("HELP")
        #expect(await brltty.display.wait(forText: "Help Screen") != nil)
        brltty.display.send("HELP")
        #expect(await brltty.display.wait(forText: "Verification code:") != nil)
    }

    @Test func aTwentyCellDisplayFollowsTheCursorAndPansWithItsKeys() async throws {
        let brltty = try #require(PrivateBrltty.start(cells: 20), "brltty did not start")
        defer { brltty.stop() }
        let output = try #require(BrailleOutput.start(.auto, location: here, environment: brltty.clientEnvironment, terminal: -1))
        defer { output.close() }
        output.present(code("123456"))
        // 25 cells and the cursor's: the window ends on the cursor's cell.
        #expect(await brltty.display.wait { $0.trimmed == "cation code: 123456" && $0.cursor == 19 } != nil)
        brltty.display.send("FWINLT")
        #expect(await brltty.display.wait(forText: "Verification code: 1") != nil)
        brltty.display.send("FWINRT")
        #expect(await brltty.display.wait(forText: "cation code: 123456") != nil)
    }

    @Test func theDisplayIsGivenBackOnReleaseAndTakenAgainByTheNextView() async throws {
        let brltty = try #require(PrivateBrltty.start(), "brltty did not start")
        defer { brltty.stop() }
        let output = try #require(BrailleOutput.start(.auto, location: here, environment: brltty.clientEnvironment, terminal: -1))
        defer { output.close() }
        output.present(code("1"))
        #expect(await brltty.display.wait(forText: "Verification code: 1") != nil)
        output.release()
        // A key the prompt does not take makes brltty draw its own screen, which it shows again.
        brltty.display.send("HOME")
        #expect(await brltty.display.wait(forText: "no screen") != nil)
        output.present(code("12"))
        #expect(await brltty.display.wait(forText: "Verification code: 12") != nil)
    }

    @Test func anotherUsersServerIsNeverConnectedTo() async throws {
        let brltty = try #require(PrivateBrltty.start(user: 65534), "brltty did not start as nobody")
        defer { brltty.stop() }
        let route = BrailleRoute.choose(
            .auto, location: SessionLocation(.console, evidence: "at the console"),
            environment: brltty.clientEnvironment, user: 0, systemUIDs: [0]
        ) { BrailleServerProbe.finding(at: $0, named: true) }
        #expect(route.address == nil && route.reason.contains("runs as uid 65534"), "\(route.reason)")
    }
}
