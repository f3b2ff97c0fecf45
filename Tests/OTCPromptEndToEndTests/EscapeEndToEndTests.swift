import Foundation
import OTCPromptTestSupport
import Testing

/// Esc on a real pty, run as a shell runs the prompt, with what the shell reads next: at a terminal of this machine
/// and in a session the prompt judges to be an SSH login (`RemoteLogin`). Esc ends the prompt once it is decided, and
/// a command typed after that is the shell's, byte for byte; Esc and the next key are never an Alt key that keeps
/// the prompt open.
@Suite(.runsAlone, .serialized)
struct EscapeEndToEndTests {
    enum Place: String, CaseIterable, CustomTestStringConvertible {
        case here, remote
        var shell: String { self == .here ? "/bin/sh" : RemoteLogin.shell }
        var testDescription: String { rawValue }
    }

    /// "echo hi⏎" as the shell reads it: the terminal, restored, turns the Enter into a line feed.
    static let command = "echo hi\r"
    static let commandAsRead = hex("echo hi\n")

    static func hex(_ text: String) -> String { text.utf8.map { String(format: "%02x", $0) }.joined() }

    /// The prompt, once shown, with its question about kitty's keyboard protocol answered as a terminal without the
    /// protocol answers it (its attributes alone), before any key: a real terminal answers within its round trip.
    func started(_ place: Place, _ options: [String] = []) async throws -> ShellAfterPrompt {
        let run = try ShellAfterPrompt(["--speech", "none"] + options, shell: place.shell)
        #expect(await run.process.waitForScreen(containing: "Verification code", deadline: .seconds(30)))
        #expect(run.process.screen.contains("\u{1B}[?u\u{1B}[c"))
        run.type("\u{1B}[?62;22c")
        return run
    }

    @Test(arguments: Place.allCases)
    func escAloneCancelsAndLeavesTheShellNothing(place: Place) async throws {
        let run = try await started(place)
        run.type("\u{1B}")
        let result = run.result()
        #expect(result?.status == 130, "screen: \(run.process.screen.debugDescription)")
        #expect(result?.left == "")
        #expect(run.process.standardOutput == "")
    }

    /// Esc, then "echo hi⏎" typed `after` later. At this machine the Esc is decided within 25 ms, and the prompt has
    /// ended: the command is the shell's, byte for byte. Over a link the Esc waits 0.3 s for the rest of a key: a
    /// command typed within it cancels at once, never an Alt key that keeps the prompt open, and the command read
    /// with it goes back to the terminal, the shell's, byte for byte, as one typed after the wait is. No quiet period
    /// swallows it either way. `after` zero is one write, as tmux's `escape-time` joins them.
    @Test(arguments: [
        (Place.here, Duration.zero), (.here, .milliseconds(50)), (.here, .milliseconds(150)),
        (.here, .milliseconds(400)), (.remote, .zero), (.remote, .milliseconds(50)), (.remote, .milliseconds(100)),
        (.remote, .milliseconds(150)), (.remote, .milliseconds(400)),
    ])
    func escThenACommandIsTheShells(place: Place, after: Duration) async throws {
        let run = try await started(place)
        if after == .zero {
            run.type("\u{1B}" + Self.command)
        } else {
            run.type("\u{1B}")
            ShellAfterPrompt.pause(after)
            run.type(Self.command)
        }
        let result = run.result()
        #expect(result?.status == 130, "screen: \(run.process.screen.debugDescription)")
        #expect(result?.left == Self.commandAsRead, "left for the shell: \(result?.left ?? "?")")
        #expect(run.process.standardOutput == "")
    }

    /// Every front end that takes Esc follows the same rules: an askpass's field, the boot prompt's passphrase, and
    /// the password agent's wait (whose Esc stops the agent), each at this machine: Esc, then a command 100 ms
    /// later, which is the shell's.
    @Test(arguments: [
        (["--askpass", "[sudo] password for alice: "], [String: String](), "password for alice"),
        (
            ["--cryptsetup"],
            [
                "CRYPTTAB_NAME": "sda2_crypt", "CRYPTTAB_SOURCE": "/dev/sda2", "CRYPTTAB_TRIED": "0",
                "CRYPTTAB_KEY": "none",
            ], "Unlock disk sda2"
        ),
        (["--agent", "--agent-directory", AgentQuerier.directory()], [:], "Waiting for password requests"),
    ])
    func everyFrontEndGivesTheShellBackAtOnce(options: [String], environment: [String: String], shown: String)
        async throws
    {
        let run = try ShellAfterPrompt(
            ["--speech", "none"] + options, environment: PromptRun.environment(environment))
        #expect(await run.process.waitForScreen(containing: shown, deadline: .seconds(30)))
        run.type("\u{1B}[?62;22c")
        await run.process.waitPastTheGrace()
        run.type("\u{1B}")
        ShellAfterPrompt.pause(.milliseconds(100))
        // How soon the terminal is given back is a figure for `make bench`, not a promise on a loaded machine: typed
        // before the restore, the Enter arrives raw (a carriage return, which a shell's line editor takes as Enter).
        let restoredBeforeTyping = run.process.slaveAttributes().c_lflag & tcflag_t(ICANON) != 0
        run.type(Self.command)
        let result = run.result()
        #expect(result != nil, "screen: \(run.process.screen.debugDescription)")
        let whole = restoredBeforeTyping ? [Self.commandAsRead] : [Self.commandAsRead, Self.hex(Self.command)]
        #expect(whole.contains(result?.left ?? ""), "left for the shell: \(result?.left ?? "?")")
        #expect(run.process.standardOutput == "")
    }

    /// Arrows, Home, End, function keys and Alt-Backspace, each written whole as a terminal writes a key: none
    /// cancels, and the code typed after them is submitted.
    @Test(arguments: Place.allCases)
    func keysWrittenWholeNeverCancel(place: Place) async throws {
        let run = try await started(place)
        for key in [
            "\u{1B}[A", "\u{1B}[D", "\u{1B}[H", "\u{1B}[F", "\u{1B}OH", "\u{1B}OP", "\u{1B}[15~", "\u{1B}\u{7F}",
        ] {
            run.type(key)
            ShellAfterPrompt.pause(.milliseconds(60))
        }
        run.type("123456")
        let result = run.result()
        #expect(result?.status == 0, "screen: \(run.process.screen.debugDescription)")
        #expect(result?.left == "")
        #expect(run.process.standardOutput == "123456\n")
    }

    /// Over a link the wait keeps an arrow key a link split from cancelling, and grows once it has seen a split.
    @Test(arguments: [Duration.milliseconds(150), .milliseconds(250)])
    func remotelyAnArrowKeySplitByTheLinkIsNoCancel(gap: Duration) async throws {
        let run = try await started(.remote)
        for _ in 0..<2 {
            run.type("\u{1B}")
            ShellAfterPrompt.pause(gap)
            run.type("[A")
            ShellAfterPrompt.pause(.milliseconds(50))
        }
        run.type("123456")
        let result = run.result()
        #expect(result?.status == 0, "screen: \(run.process.screen.debugDescription)")
        #expect(result?.left == "")
        #expect(run.process.standardOutput == "123456\n")
    }

    /// Split further apart than the wait, the Esc has cancelled and the prompt has ended: the rest of the key, and
    /// what follows it, are the shell's, as typed (no quiet period reads them and drops them).
    @Test func remotelyAKeySplitPastTheWaitIsACancelAndItsRestTheShells() async throws {
        let run = try await started(.remote)
        run.type("\u{1B}")
        ShellAfterPrompt.pause(.milliseconds(700))
        run.type("[A")
        let result = run.result()
        #expect(result?.status == 130, "screen: \(run.process.screen.debugDescription)")
        #expect(result?.left == Self.hex("[A"), "left for the shell: \(result?.left ?? "?")")
    }

    /// A wait the user set wins, here as anywhere.
    @Test func hereTheUsersEscapeDelayWins() async throws {
        let run = try await started(.here, ["--escape-delay", "1"])
        run.type("\u{1B}")
        ShellAfterPrompt.pause(.milliseconds(700))
        run.type("[A")
        ShellAfterPrompt.pause(.milliseconds(50))
        run.type("123456")
        let result = run.result()
        #expect(result?.status == 0, "screen: \(run.process.screen.debugDescription)")
        #expect(run.process.standardOutput == "123456\n")
    }
}
