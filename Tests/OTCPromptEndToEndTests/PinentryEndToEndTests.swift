import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// otc-prompt as GnuPG's pinentry: the same Assuan replies as pinentry 1.2, and real gpg flows on a pty.
@Suite(.runsPrograms) struct PinentryEndToEndTests {
    /// Replies that legitimately differ (version, pid, flavor, the program's name in status lines) made equal.
    static func normalized(_ replies: String) -> [String] {
        replies.split(separator: "\n").map { line in
            if line.wholeMatch(of: /D [0-9.]+/) != nil { return "D <number>" }
            if line == "D otc" || line == "D tty" || line == "D curses" { return "D <flavor>" }
            return String(line.replacing(/^S ERROR (otc|curses|tty)\./, with: "S ERROR <flavor>."))
        }
    }

    static let conversations: [String] = [
        // What gpg-agent 2.2 sends before a GETPIN, then the rest of the protocol.
        """
        OPTION ttyname=/dev/null
        OPTION ttytype=xterm-256color
        OPTION lc-ctype=C.UTF-8
        OPTION lc-messages=C
        OPTION allow-external-password-cache
        OPTION default-ok=_OK
        OPTION default-cancel=_Cancel
        OPTION default-prompt=PIN:
        OPTION default-pwmngr=_Save in password manager
        OPTION default-cf-visi=Do you really want to make your passphrase visible on the screen?
        OPTION default-tt-visi=Make passphrase visible
        OPTION default-tt-hide=Hide passphrase
        OPTION touch-file=/tmp/nothing
        OPTION owner=1234/1000 host
        GETINFO flavor
        GETINFO version
        GETINFO ttyinfo
        GETINFO pid
        SETKEYINFO n/68E09AC533F00E88C1A614CF6D0B3CD7B42E591B
        SETDESC Please enter the passphrase to unlock the OpenPGP secret key:%0A%22Alice <alice@example.org>%22%0A255-bit EDDSA key, ID 6D0B3CD7B42E591B,%0Acreated 2026-11-23.%0A
        SETPROMPT Passphrase:
        SETERROR Bad Passphrase (try 2 of 3)
        SETREPEAT Repeat:
        SETREPEATERROR does not match - try again
        SETQUALITYBAR Quality:
        SETQUALITYBAR_TT The quality of the text entered above.
        SETGENPIN Suggest
        SETTIMEOUT 30
        SETTITLE Title%25 with %0D%0A escapes
        SETOK _OK
        SETCANCEL _Cancel
        SETNOTOK _No
        RESET
        NOP
        BYE

        """,
        // Errors: unknown commands and options, syntax, case, comments and blank lines.
        """
        FOO
        setdesc lower case
        # a comment

        OPTION
        OPTION =x
        OPTION ttyname=
        OPTION  ttyname = /dev/x 
        OPTION --ttytype=vt100
        OPTION no-such-option=1
        OPTION grab=1
        GETINFO
        GETINFO  version
        GETINFO version x
        GETINFO ttyinfo
          NOP
        CANCEL
        AUTH
        END
        HELP
        HELP GETPIN
        HELP NOSUCH
        CLEARPASSPHRASE n/abc
        SETKEYINFO --clear
        SETTIMEOUT -3
        BYE

        """,
    ]

    @Test(arguments: conversations.indices)
    func repliesAreThoseOfPinentryTTY(index: Int) async throws {
        let script = Self.conversations[index]
        let environment = PromptRun.environment()
        let ours = try await runProgram(
            PromptRun.binary, ["--pinentry", "--speech", "none"], input: script, environment: environment)
        let theirs = try await runProgram("/usr/bin/pinentry-tty", [], input: script, environment: environment)
        #expect(ours.status == 0 && theirs.status == 0)
        #expect(Self.normalized(ours.output) == Self.normalized(theirs.output))
        #expect(Self.normalized(ours.output).count > 20)
    }

    /// Without a usable terminal pinentry-tty just says "cancelled"; we answer with the reason, as
    /// pinentry-curses does, so gpg can tell the user what is wrong.
    @Test func anUnusableTerminalIsReportedAsPinentryCursesReportsIt() async throws {
        let script = "OPTION ttyname=/nonexistent/tty\nGETPIN\nCONFIRM\nMESSAGE\nBYE\n"
        let environment = PromptRun.environment()
        let ours = try await runProgram(
            PromptRun.binary, ["--pinentry", "--speech", "none"], input: script, environment: environment)
        let theirs = try await runProgram("/usr/bin/pinentry-curses", [], input: script, environment: environment)
        #expect(Self.normalized(ours.output) == Self.normalized(theirs.output))
        #expect(ours.output.contains("ERR 83918929 No such file or directory <Pinentry>"))
    }

    @Test func aLineLongerThanAssuanAllowsEndsTheConversationAsLibassuanDoes() async throws {
        let script =
            "NOP\nSETDESC " + String(repeating: "a", count: 993) + "\nSETDESC " + String(repeating: "a", count: 994)
            + "\nNOP\n"
        let environment = PromptRun.environment()
        let ours = try await runProgram(
            PromptRun.binary, ["--pinentry", "--speech", "none"], input: script, environment: environment)
        let theirs = try await runProgram("/usr/bin/pinentry-tty", [], input: script, environment: environment)
        #expect(ours.output == theirs.output)
        #expect(ours.output == "OK Pleased to meet you\nOK\nOK\n")
        #expect(ours.error.contains("Line passed to IPC too long"))
    }

    @Test func runAsPinentryOtcItIsAPinentry() async throws {
        let link = NSTemporaryDirectory() + "/otc-\(UUID().uuidString)/pinentry-otc"
        try FileManager.default.createDirectory(
            atPath: (link as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: (link as NSString).deletingLastPathComponent) }
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: PromptRun.binary)
        let run = try await runProgram(link, [], input: "GETINFO flavor\nBYE\n", environment: PromptRun.environment())
        #expect(run.output == "OK Pleased to meet you\nD otc\nOK\nOK closing connection\n")
    }

    /// Starts `gpg arguments` on a fresh pty, GPG_TTY naming it.
    func gpgOnTerminal(_ home: GnuPGHome, _ arguments: String) throws -> PseudoTerminalProcess {
        try PseudoTerminalProcess(
            executable: "/bin/sh", arguments: home.onTerminal(arguments), environment: home.environment)
    }

    /// The screen's lines as a braille display shows them: escape sequences gone, a line overwritten
    /// after a carriage return shows its last text.
    func shownLines(_ screen: String) -> [String] {
        visibleText(screen).replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n").map {
            String($0.split(separator: "\r", omittingEmptySubsequences: true).last ?? "")
        }
    }

    func waitForScreen(_ process: PseudoTerminalProcess, _ text: String, count: Int = 1) -> Bool {
        let clock = ContinuousClock()
        let end = clock.now + .seconds(20)
        while clock.now < end {
            if process.screen.components(separatedBy: text).count - 1 >= count { return true }
            _ = process.waitForScreen(containing: "\u{0}never", deadline: .milliseconds(50))
        }
        return false
    }

    @Test(.timeLimit(.minutes(5))) func signingAfterAWrongPassphraseSaysTheErrorAndTheRetryWorks() async throws {
        let home = try await GnuPGHome()
        let gpg = try gpgOnTerminal(home, "--yes --sign --output '\(home.path)/message.gpg' '\(home.path)/message'")
        #expect(waitForScreen(gpg, "Passphrase. Type it"), "screen: \(gpg.screen)")
        gpg.type("wrong horse\r")
        #expect(waitForScreen(gpg, "Bad Passphrase (try 2 of 3)"), "screen: \(gpg.screen)")
        gpg.type(GnuPGHome.passphrase + "\r")
        #expect(await gpg.waitForExit(deadline: .seconds(30)) == .exited(0), "screen: \(gpg.screen)")
        let verified = try await home.gpg(["--verify", home.path + "/message.gpg"])
        #expect(verified.status == 0 && verified.error.contains("Good signature from \"Alice <alice@example.org>\""))

        let spoken = home.spoken
        #expect(spoken.contains("Please enter the passphrase to unlock the OpenPGP secret key"))
        #expect(spoken.contains("Alice <alice@example.org>"))
        #expect(spoken.contains("Bad Passphrase (try 2 of 3). Passphrase. Type it, then Enter."))
        // On the retry the news comes first, then the field and how to fill it; what the dialog is about follows.
        let retry = try #require(spoken.split(separator: "\n").first { $0.contains("Bad Passphrase") })
        let order = [
            "\"text\": \"Bad Passphrase (try 2 of 3). Passphrase. Type it", "Please enter the passphrase", "Alice",
        ]
        .map { retry.range(of: $0)?.lowerBound }
        #expect(
            order.allSatisfy { $0 != nil } && order.compactMap { $0 } == order.compactMap { $0 }.sorted(), "\(retry)")
        #expect(!spoken.contains("secret key:. "), "no sentence end invented at a line break")
        for secret in [GnuPGHome.passphrase, "wrong horse", "corr", "horse"] {
            #expect(!spoken.contains(secret), "the speech log holds \(secret)")
            #expect(!gpg.screen.contains(secret), "the screen shows \(secret)")
        }
    }

    /// Decryption asks through the same GETPIN as signing, for the encryption subkey: said, then the
    /// plaintext comes out, and the passphrase is nowhere in the log or on the screen.
    @Test(.timeLimit(.minutes(5))) func decryptingAsksForThePassphraseOfTheSubkey() async throws {
        let home = try await GnuPGHome()
        let encrypted = try await home.gpg([
            "--batch", "--yes", "--trust-model", "always", "--encrypt", "--recipient", "alice@example.org",
            "--output", home.path + "/message.asc", home.path + "/message",
        ])
        #expect(encrypted.status == 0, "\(encrypted.error)")
        let gpg = try gpgOnTerminal(home, "--yes --decrypt --output '\(home.path)/plain' '\(home.path)/message.asc'")
        #expect(waitForScreen(gpg, "Passphrase. Type it"), "screen: \(gpg.screen)")
        gpg.type(GnuPGHome.passphrase + "\r")
        #expect(await gpg.waitForExit(deadline: .seconds(30)) == .exited(0), "screen: \(gpg.screen)")
        #expect((try? String(contentsOfFile: home.path + "/plain", encoding: .utf8)) == "hello\n")
        let spoken = home.spoken
        #expect(spoken.contains("Please enter the passphrase to unlock the OpenPGP secret key"), "\(spoken)")
        #expect(spoken.contains("Alice <alice@example.org>"))
        #expect(!spoken.contains(GnuPGHome.passphrase) && !gpg.screen.contains(GnuPGHome.passphrase))
    }

    @Test(.timeLimit(.minutes(5))) func escapeCancelsAndGpgSaysOperationCancelled() async throws {
        let home = try await GnuPGHome()
        let gpg = try gpgOnTerminal(home, "--yes --sign --output '\(home.path)/message.gpg' '\(home.path)/message'")
        let before = gpg.attributesAtStart
        #expect(waitForScreen(gpg, "Passphrase. Type it"), "screen: \(gpg.screen)")
        gpg.type("abc")
        gpg.type([0x1B])
        #expect(await gpg.waitForExit(deadline: .seconds(30)) == .exited(2), "screen: \(gpg.screen)")
        #expect(gpg.screen.contains("Operation cancelled"), "screen: \(gpg.screen)")
        #expect(sameAttributes(before, gpg.slaveAttributes()))
        #expect(!FileManager.default.fileExists(atPath: home.path + "/message.gpg"))
    }

    @Test(.timeLimit(.minutes(5))) func changingThePassphraseAsksTwiceAndReportsAMismatch() async throws {
        let home = try await GnuPGHome()
        let gpg = try gpgOnTerminal(home, "--passwd alice@example.org")
        let new = "N3w pass 42!"
        #expect(waitForScreen(gpg, "Passphrase. Type it"), "screen: \(gpg.screen)")
        gpg.type(GnuPGHome.passphrase + "\r")
        #expect(waitForScreen(gpg, "Please enter the new passphrase"), "screen: \(gpg.screen)")
        gpg.type(new + "\r")
        #expect(waitForScreen(gpg, "Repeat. Type it"), "screen: \(gpg.screen)")
        gpg.type("N3w pass 43!\r")
        #expect(waitForScreen(gpg, "does not match"), "screen: \(gpg.screen)")
        #expect(waitForScreen(gpg, "Passphrase. Type it", count: 3), "screen: \(gpg.screen)")
        gpg.type(new + "\r")
        #expect(waitForScreen(gpg, "Repeat. Type it", count: 2), "screen: \(gpg.screen)")
        gpg.type(new + "\r")
        #expect(await gpg.waitForExit(deadline: .seconds(30)) == .exited(0), "screen: \(gpg.screen)")

        // The new passphrase is the one that now signs (a fresh agent: nothing cached).
        _ = try await runProgram("/usr/bin/gpgconf", ["--kill", "gpg-agent"], environment: home.environment)
        let sign = try gpgOnTerminal(home, "--yes --sign --output '\(home.path)/message.gpg' '\(home.path)/message'")
        #expect(waitForScreen(sign, "Passphrase. Type it"), "screen: \(sign.screen)")
        sign.type(new + "\r")
        #expect(await sign.waitForExit(deadline: .seconds(30)) == .exited(0), "screen: \(sign.screen)")
        #expect(home.spoken.contains("does not match"))
        for secret in [GnuPGHome.passphrase, new, "N3w pass 43!"] { #expect(!home.spoken.contains(secret)) }
    }

    @Test(.timeLimit(.minutes(5))) func withoutATerminalGpgReportsWhy() async throws {
        let home = try await GnuPGHome()
        var environment = home.environment
        environment["GPG_TTY"] = nil
        // Made by the test, and opened to its group: nowhere to post the question for a password agent either
        // (AgentPostingEndToEndTests has the agent that answers it), so nothing can ask.
        #expect(chmod(environment["XDG_RUNTIME_DIR"]!, 0o770) == 0)
        let run = try await runProgram(
            "/usr/bin/setsid",
            [
                "--wait", "/usr/bin/gpg", "--homedir", home.path, "--yes", "--sign", "--output",
                home.path + "/message.gpg",
                home.path + "/message",
            ], environment: environment)
        #expect(run.status != 0)
        #expect(run.error.contains("Inappropriate ioctl for device"), "\(run.error)")
    }

    /// A card's PIN prompt: a masked field of any length (an OpenPGP card's PIN may hold letters), Enter
    /// submits, the count said and never a character; the PIN goes back percent-escaped as pinentry sends it.
    @Test(.timeLimit(.minutes(5))) func aCardPINIsAMaskedFieldWhoseCharactersAreNeverSaid() async throws {
        let log = NSTemporaryDirectory() + "/otc-pin-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: log) }
        let script =
            #"printf 'OPTION ttyname=%s\nSETDESC Please unlock the card%%0A%%0ANumber: 0006 87654321%%0AHolder: Alice\nSETPROMPT PIN\nGETPIN\nBYE\n' "$(tty)" | "$0" --pinentry --speech text --speech-log "$1""#
        let run = try PseudoTerminalProcess(
            executable: "/bin/sh", arguments: ["-c", script, PromptRun.binary, log],
            environment: PromptRun.environment())
        #expect(waitForScreen(run, "PIN. Type it"), "screen: \(run.screen)")
        run.type("12a4%678\r")
        #expect(await run.waitForExit(deadline: .seconds(10)) == .exited(0))
        #expect(run.standardOutput.contains("D 12a4%25678\nOK\n"), "\(run.standardOutput)")
        let spoken = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        // What is asked first; the card's lines are items of one paragraph: a pause between them, not a sentence end.
        #expect(
            spoken.contains("PIN. Type it, then Enter. Please unlock the card. Number: 0006 87654321, Holder: Alice."),
            "\(spoken)")
        // The card's serial number is said in groups, as a code is read back; the log has what the voice was handed.
        #expect(spoken.contains("Number: 0006 8 7 6 5, 4 3 2 1, Holder: Alice."), "\(spoken)")
        // Each key is said as its count only: "bullet, 1 entered" … "bullet, 8 entered".
        let keys = spoken.split(separator: "\n").filter { $0.contains("entered") }
        #expect(keys.count == 8, "\(spoken)")
        for (index, line) in keys.enumerated() { #expect(line.contains(#""text": "bullet, \#(index + 1) entered""#)) }
        #expect(!spoken.contains("12a4"))
        #expect(!run.screen.contains("12a4"))
    }

    /// A retry in text mode (a braille display, a remote user) was one run-on line: "Bad Passphrase (try 2
    /// of 3). Passphrase, empty, secret text. … Please enter …". Each part and each of gpg's lines is a line,
    /// a blank line where gpg left one; the speech log still has the one flow.
    @Test(.timeLimit(.minutes(5))) func aRetryInTextModeKeepsGpgsLines() async throws {
        let log = NSTemporaryDirectory() + "/otc-retry-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: log) }
        let script =
            #"printf 'OPTION ttyname=%s\nSETDESC Please enter the passphrase%%0Ato unlock the key.%%0A%%0AWarning: weak.\nSETPROMPT Passphrase:\nSETERROR Bad Passphrase (try 2 of 3)\nGETPIN\nBYE\n' "$(tty)" | "$0" --pinentry --speech text --speech-log "$1""#
        let run = try PseudoTerminalProcess(
            executable: "/bin/sh", arguments: ["-c", script, PromptRun.binary, log],
            environment: PromptRun.environment())
        #expect(waitForScreen(run, "Warning: weak."), "screen: \(run.screen)")
        let lines = shownLines(run.screen)
        let news = try #require(lines.firstIndex(of: "Bad Passphrase (try 2 of 3)."), "\(lines)")
        #expect(lines[news + 1].hasPrefix("Passphrase. Type it"), "\(lines)")
        #expect(
            Array(lines[(news + 2)...].prefix(4))
                == ["Please enter the passphrase", "to unlock the key.", "", "Warning: weak."], "\(lines)")
        run.type("\u{1B}")
        #expect(await run.waitForExit(deadline: .seconds(10)) == .exited(0))
        let spoken = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(spoken.contains("Bad Passphrase (try 2 of 3). Passphrase"), "\(spoken)")
        #expect(spoken.contains("Please enter the passphrase to unlock the key. Warning: weak."), "\(spoken)")
    }

    /// CONFIRM needs a typed whole yes: Enter alone answers nothing, "no" is "Not confirmed"; a MESSAGE is
    /// a notice that Enter takes.
    @Test(.timeLimit(.minutes(5))) func aConfirmationNeedsATypedYes() async throws {
        let script =
            #"printf 'OPTION ttyname=%s\nSETDESC Do you trust%%0Athe key 6D0B3CD7B42E591B?\nCONFIRM\nCONFIRM\nMESSAGE\nBYE\n' "$(tty)" | "$0" --pinentry --speech text"#
        let run = try PseudoTerminalProcess(
            executable: "/bin/sh", arguments: ["-c", script, PromptRun.binary], environment: PromptRun.environment())
        #expect(waitForScreen(run, "the key 6D0B3CD7B42E591B?"), "screen: \(run.screen)")
        await run.waitPastTheGrace()
        run.type("\r")
        usleep(200_000)
        run.type("yes\r")
        #expect(waitForScreen(run, "the key 6D0B3CD7B42E591B?", count: 2), "screen: \(run.screen)")
        await run.waitPastTheGrace()
        run.type("no\r")
        // The MESSAGE's lines and its hint are lines of their own in text mode, as gpg wrote them: once
        // "Do you trust, the key 6D0B3CD7B42E591B? Press Enter to continue." on one line.
        #expect(waitForScreen(run, "Press Enter to continue."), "screen: \(run.screen)")
        let lines = shownLines(run.screen)
        #expect(
            lines.indices.dropLast(2).contains {
                Array(lines[$0...$0 + 2]) == ["Do you trust", "the key 6D0B3CD7B42E591B?", "Press Enter to continue."]
            }, "\(lines)")
        await run.waitPastTheGrace()
        run.type("\r")
        #expect(await run.waitForExit(deadline: .seconds(10)) == .exited(0))
        #expect(
            run.standardOutput
                == "OK Pleased to meet you\nOK\nOK\nOK\nERR 83886194 Not confirmed <Pinentry>\nOK\nOK closing connection\n"
        )
    }
}
