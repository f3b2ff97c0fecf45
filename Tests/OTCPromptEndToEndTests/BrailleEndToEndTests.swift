import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// `--braille auto` with a real brltty (its Virtual driver as the display, `PrivateBrltty`): what the user's display
/// shows at each step, the keys typed on it, and the display given back on every way out.
@Suite(
    .runsPrograms,
    .enabled(
        if: PrivateBrltty.isInstalled,
        "needs brltty (its Virtual driver), libbrlapi0.8 and setpriv: apt-get install brltty libbrlapi0.8"))
struct BrailleEndToEndTests {
    /// The dots brltty's default table (en-nabcc) gives each digit, as a `PASSDOTS` number (dot N is bit N-1).
    static let digitDots: [Character: Int] = [
        "1": 2, "2": 6, "3": 18, "4": 50, "5": 34, "6": 22, "7": 54, "8": 38, "9": 20, "0": 52,
    ]

    /// The prompt with `arguments` on `brltty`'s display (or through `host`), silent, once its field is shown.
    private func prompt(
        _ arguments: [String], on brltty: PrivateBrltty, host: String? = nil, ready: String? = "Verification code"
    ) async throws -> PromptRun {
        var environment = PromptRun.environment(brltty.clientEnvironment)
        if let host { environment["BRLAPI_HOST"] = host }
        return try await PromptRun(["--braille", "auto"] + arguments, environment: environment, ready: ready)
    }

    /// Waits until the display's text (without its trailing blanks) is `text`, and its cursor on `cursor` when given;
    /// reads the prompt's terminal meanwhile.
    @discardableResult
    private func shows(
        _ text: String, cursor: Int?? = .none, on brltty: PrivateBrltty, run: PromptRun,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> Bool {
        let shown = await run.process.wait(deadline: .seconds(20)) { _ in
            guard let frame = brltty.display.frame, frame.trimmed == text else { return false }
            guard case .some(let expected) = cursor else { return true }
            return frame.cursor == expected
        }
        #expect(
            shown, "the display shows \(String(describing: brltty.display.frame)), not \(text)",
            sourceLocation: sourceLocation)
        return shown
    }

    /// Waits until the display shows a frame that satisfies `predicate`; reads the prompt's terminal meanwhile.
    @discardableResult
    private func shows(
        on brltty: PrivateBrltty, run: PromptRun, sourceLocation: SourceLocation = #_sourceLocation,
        where predicate: @escaping (VirtualDisplay.Frame) -> Bool
    ) async -> Bool {
        let shown = await run.process.wait(deadline: .seconds(20)) { _ in brltty.display.frame.map(predicate) ?? false }
        #expect(shown, "the display shows \(String(describing: brltty.display.frame))", sourceLocation: sourceLocation)
        return shown
    }

    /// After the prompt has ended: brltty shows its own screen again when a key that is its own is pressed.
    private func givenBack(_ brltty: PrivateBrltty, sourceLocation: SourceLocation = #_sourceLocation) async {
        brltty.display.send("HOME")
        #expect(
            await brltty.display.wait(forText: "no screen") != nil, "\(String(describing: brltty.display.frame))",
            sourceLocation: sourceLocation)
    }

    /// The display's states, one line each, for the record (`OTC_SHOW_BRAILLE=1`).
    private func record(_ name: String, _ brltty: PrivateBrltty) {
        guard ProcessInfo.processInfo.environment["OTC_SHOW_BRAILLE"] != nil else { return }
        // A text's dots come in a line after it: each state as its last frame has it.
        var states: [VirtualDisplay.Frame] = []
        for frame in brltty.display.history {
            if states.last?.trimmed == frame.trimmed { states[states.count - 1] = frame } else { states.append(frame) }
        }
        for state in states {
            print("BRAILLE \(name): \"\(state.trimmed)\" cursor \(state.cursor.map(String.init) ?? "none")")
        }
    }

    @Test func aCodeIsShownAsTypedWithItsCursorAndCtrlRShowsItsGroups() async throws {
        let brltty = try #require(PrivateBrltty.start(), "brltty did not start")
        defer { brltty.stop() }
        let run = try await prompt([], on: brltty)
        await shows("Verification code:", cursor: 19, on: brltty, run: run)
        run.type("985")
        await shows("Verification code: 985", cursor: 22, on: brltty, run: run)
        run.type("3")
        await shows("Verification code: 9853", cursor: 23, on: brltty, run: run)
        run.type([0x12])
        await shows("Verification code: 985 3", cursor: nil, on: brltty, run: run)
        run.type([0x7F])
        await shows("Verification code: 985", cursor: 22, on: brltty, run: run)
        run.type("391")
        #expect(await run.exit() == .exited(0))
        #expect(run.process.standardOutput == "985391\n")
        record("code", brltty)
        await givenBack(brltty)
    }

    @Test func aPasswordIsItsCountAloneOnTheDisplayAndOnTheSocket() async throws {
        let brltty = try #require(PrivateBrltty.start(), "brltty did not start")
        defer { brltty.stop() }
        let port = try #require(brltty.apiPort)
        let proxy = try #require(BrlAPIRecordingProxy(targetPort: port))
        let run = try await prompt(
            ["--askpass", "--", "Password for ana@example.org:"], on: brltty, host: proxy.host, ready: "Password")
        await shows("Password for ana@example.org:", cursor: nil, on: brltty, run: run)
        await run.waitPastTheGrace()
        run.type("hunter")
        await shows("Password for ana@example.org: ⣀⣀⣀⣀⣀⣀", cursor: nil, on: brltty, run: run)
        run.type([0x12])
        await shows("Password for ana@example.org: 6 entered", on: brltty, run: run)
        run.type("2\r")
        #expect(await run.exit() == .exited(0))
        #expect(run.process.standardOutput == "hunter2\n")
        record("password", brltty)
        let everything = brltty.display.history.map(\.text).joined() + String(decoding: proxy.bytes, as: UTF8.self)
        #expect(!everything.contains("hunter") && !everything.contains("unter2"))
        #expect(proxy.sentPackets.contains { $0.type == UInt32(UInt8(ascii: "w")) }, "the prompt wrote through it")
        #expect(!brltty.log.contains("hunter"))
    }

    @Test func aRejectedCodesNewsIsShownUntilTheNextKey() async throws {
        let brltty = try #require(PrivateBrltty.start(), "brltty did not start")
        defer { brltty.stop() }
        let run = try await prompt(["--check", "false", "--attempts", "3"], on: brltty)
        run.type("123456")
        // The news from its start; the field follows it, a pan away.
        await shows(on: brltty, run: run) { $0.text.hasPrefix("Code rejected. 2 attempts left.") }
        brltty.display.send("FWINRT")
        await shows(on: brltty, run: run) { $0.trimmed.hasSuffix("Verification code: 123456") }
        run.type("7")
        await shows("Verification code: 7", cursor: 20, on: brltty, run: run)
        run.type([0x1B])
        #expect(await run.exit() == .exited(130))
        record("rejected", brltty)
        await givenBack(brltty)
    }

    @Test func digitsEnterAndEscapeTypedOnTheDisplayActOnTheField() async throws {
        let brltty = try #require(PrivateBrltty.start(), "brltty did not start")
        defer { brltty.stop() }
        let run = try await prompt(["--no-auto-submit"], on: brltty)
        await shows("Verification code:", on: brltty, run: run)
        for digit in "2468" { brltty.display.send("PASSDOTS \(Self.digitDots[digit]!)") }
        await shows("Verification code: 2468", cursor: 23, on: brltty, run: run)
        brltty.display.send("KEY_BACKSPACE")
        await shows("Verification code: 246", on: brltty, run: run)
        for digit in "135" { brltty.display.send("PASSDOTS \(Self.digitDots[digit]!)") }
        await shows("Verification code: 246135", on: brltty, run: run)
        brltty.display.send("KEY_ENTER")
        #expect(await run.exit() == .exited(0))
        #expect(run.process.standardOutput == "246135\n")
        record("typed on the display", brltty)
        await givenBack(brltty)
    }

    @Test func escapeOnTheDisplayCancelsAndGivesTheDisplayBack() async throws {
        let brltty = try #require(PrivateBrltty.start(), "brltty did not start")
        defer { brltty.stop() }
        let run = try await prompt([], on: brltty)
        run.type("12")
        await shows("Verification code: 12", on: brltty, run: run)
        brltty.display.send("KEY_ESCAPE")
        #expect(await run.exit() == .exited(130))
        #expect(run.process.standardOutput == "")
        await givenBack(brltty)
    }

    @Test(arguments: [SIGKILL, SIGTERM])
    func aKilledPromptLeavesTheDisplayToBrltty(signal: Int32) async throws {
        let brltty = try #require(PrivateBrltty.start(), "brltty did not start")
        defer { brltty.stop() }
        let run = try await prompt([], on: brltty)
        run.type("12")
        await shows("Verification code: 12", on: brltty, run: run)
        run.process.sendSignal(signal)
        #expect(await run.exit() == .signaled(signal))
        await givenBack(brltty)
    }

    @Test func aTwentyCellDisplayKeepsTheCursorInViewAndPans() async throws {
        let brltty = try #require(PrivateBrltty.start(cells: 20), "brltty did not start")
        defer { brltty.stop() }
        let run = try await prompt(["--no-auto-submit"], on: brltty)
        await shows("Verification code:", cursor: 19, on: brltty, run: run)
        run.type("12")
        await shows("rification code: 12", cursor: 19, on: brltty, run: run)
        run.type("3456")
        await shows("cation code: 123456", cursor: 19, on: brltty, run: run)
        brltty.display.send("FWINLT")
        await shows("Verification code: 1", on: brltty, run: run)
        brltty.display.send("RETURN")
        await shows("cation code: 123456", cursor: 19, on: brltty, run: run)
        run.type("\r")
        #expect(await run.exit() == .exited(0))
        record("20 cells", brltty)
    }

    @Test(arguments: [false, true])
    func anotherUsersBrlttyIsNeverUsed(localSocket: Bool) async throws {
        let brltty = try #require(PrivateBrltty.start(user: 65534, localSocket: localSocket), "brltty did not start")
        defer { brltty.stop() }
        let run = try await prompt([], on: brltty)
        run.type("123")
        #expect(await run.waitForEvent("digit", count: 3, deadline: .seconds(20)))
        // The code on the screen and the display never showing it: the display is still brltty's own.
        #expect(brltty.display.history.allSatisfy { $0.trimmed == "no screen" }, "\(brltty.display.history)")
        run.type("456")
        #expect(await run.exit() == .exited(0))
        let doctor = try PseudoTerminalProcess(
            executable: PromptRun.binary, arguments: ["--doctor", "--speech", "none"],
            environment: PromptRun.environment(brltty.clientEnvironment))
        #expect(await doctor.waitForExit(deadline: .seconds(20)) == .exited(0))
        #expect(
            doctor.standardOutput.contains("Braille: none, because the BrlAPI server at"), "\(doctor.standardOutput)")
        #expect(doctor.standardOutput.contains("runs as uid 65534, not as you (uid 0)"))
    }

    @Test func theDoctorSaysWhichDisplayAndWhy() async throws {
        let brltty = try #require(PrivateBrltty.start(), "brltty did not start")
        defer { brltty.stop() }
        let doctor = try PseudoTerminalProcess(
            executable: PromptRun.binary, arguments: ["--doctor", "--speech", "none"],
            environment: PromptRun.environment(brltty.clientEnvironment))
        #expect(await doctor.waitForExit(deadline: .seconds(20)) == .exited(0))
        let report = doctor.standardOutput
        let port = try #require(brltty.apiPort)
        #expect(report.contains("Braille: BrlAPI at 127.0.0.1 port \(port), because your own"), "\(report)")
        #expect(report.contains("Braille display: 40 cells, brltty's Virtual driver."), "\(report)")
        #expect(report.contains("Braille tty: below WINDOWPATH 1, the graphical session's console itself."))
        let none = try PseudoTerminalProcess(
            executable: PromptRun.binary, arguments: ["--doctor", "--speech", "none", "--braille", "none"],
            environment: PromptRun.environment(brltty.clientEnvironment))
        #expect(await none.waitForExit(deadline: .seconds(20)) == .exited(0))
        #expect(none.standardOutput.contains("Braille: none, because chosen by --braille or the config file."))
    }

    /// The password agent's wait, then a request on the display, answered from the display's keyboard, then one
    /// withdrawn: its news opens the wait that follows.
    @Test func theAgentsWaitAndItsRequestsAreOnTheDisplay() async throws {
        let brltty = try #require(PrivateBrltty.start(), "brltty did not start")
        defer { brltty.stop() }
        let directory = AgentQuerier.directory()
        let run = try await prompt(
            ["--agent", "--agent-directory", directory], on: brltty, ready: "Waiting for password requests")
        await shows("Waiting for password requests.", cursor: nil, on: brltty, run: run)
        let querier = try AgentQuerier(
            in: directory, lines: ["PID=\(getpid())", "Echo=0", "Message=Passphrase for backup"])
        await shows("Passphrase for backup:", cursor: nil, on: brltty, run: run)
        await run.waitPastTheGrace()
        // a, b, c in dots.
        for dots in [1, 3, 9] { brltty.display.send("PASSDOTS \(dots)") }
        await shows("Passphrase for backup: ⣀⣀⣀", cursor: nil, on: brltty, run: run)
        brltty.display.send("KEY_ENTER")
        #expect(await querier.answer() == "+abc")
        let withdrawn = try AgentQuerier(in: directory, lines: ["PID=\(getpid())", "Message=Going away"])
        await shows("Going away:", on: brltty, run: run)
        unlink(withdrawn.askPath)
        await shows("Request withdrawn. Waiting for password", cursor: nil, on: brltty, run: run)
        brltty.display.send("FWINRT")
        await shows("ithdrawn. Waiting for password requests.", on: brltty, run: run)
        record("agent", brltty)
        run.process.sendSignal(SIGTERM)
        #expect(await run.exit() == .signaled(SIGTERM))
        await givenBack(brltty)
    }

    /// libbrlapi is a recommendation, not a dependency: one that cannot be loaded (an empty file of its name, found
    /// first through LD_LIBRARY_PATH) costs the display, never the prompt, and --doctor says why.
    @Test func withoutAUsableLibbrlapiThePromptAsksAsBefore() async throws {
        let brltty = try #require(PrivateBrltty.start(), "brltty did not start")
        defer { brltty.stop() }
        let directory = PromptRun.privateDirectory()
        _ = FileManager.default.createFile(atPath: directory + "/libbrlapi.so.0.8", contents: Data())
        var environment = PromptRun.environment(brltty.clientEnvironment)
        environment["LD_LIBRARY_PATH"] = directory
        let run = try await PromptRun(["--braille", "auto"], environment: environment)
        run.type("123456")
        #expect(await run.exit() == .exited(0))
        #expect(run.process.standardOutput == "123456\n")
        #expect(brltty.display.history.allSatisfy { $0.trimmed == "no screen" })
        let doctor = try PseudoTerminalProcess(
            executable: PromptRun.binary, arguments: ["--doctor", "--speech", "none"], environment: environment)
        #expect(await doctor.waitForExit(deadline: .seconds(20)) == .exited(0))
        #expect(doctor.standardOutput.contains("Braille display: not reached: libbrlapi.so.0.8 cannot be used"))
    }

    /// At boot, brltty starts in the initramfs without BrlAPI (-N) and reads the console, following its cursor: the
    /// console's last line is the field, label and count, and the line above it the news; never the passphrase.
    @Test func theBootConsoleReadsAsTheLabelTheCountAndTheNewsAbove() async throws {
        let environment = PromptRun.environment([
            "TERM": "linux", "CRYPTTAB_NAME": "sda2_crypt", "CRYPTTAB_SOURCE": "/dev/sda2", "CRYPTTAB_TRIED": "1",
        ])
        let run = try await PromptRun(["--cryptsetup"], environment: environment, ready: "Unlock disk sda2")
        run.type("horse 7")
        #expect(
            await run.process.wait(deadline: .seconds(20)) { process in
                process.screenLines().suffix(2) == ["Wrong passphrase, try 2 of 3.", "Unlock disk sda2: *******"]
            }, "\(run.process.screenLines())")
        run.type("\r")
        #expect(await run.exit() == .exited(0))
        #expect(!run.process.screen.contains("horse"))
    }
}
