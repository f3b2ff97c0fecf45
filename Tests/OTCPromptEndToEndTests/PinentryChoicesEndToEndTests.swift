import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// With the real gpg-agent: its button labels are the choices, and its warnings come first on a retry.
extension PinentryEndToEndTests {
    /// Types the old passphrase, then `new` twice, at `gpg --passwd`.
    func changePassphrase(_ gpg: PseudoTerminalProcess, to new: String, count: Int = 1) {
        #expect(waitForScreen(gpg, "Passphrase. Type it"), "screen: \(gpg.screen)")
        gpg.type(GnuPGHome.passphrase + "\r")
        #expect(waitForScreen(gpg, "Please enter the new passphrase", count: count), "screen: \(gpg.screen)")
        gpg.type(new + "\r")
        #expect(waitForScreen(gpg, "Repeat. Type it", count: count), "screen: \(gpg.screen)")
        gpg.type(new + "\r")
    }

    /// `gpg --passwd` on a pty, given "abc" as the new passphrase: once gpg-agent's weak-passphrase warning has
    /// been shown, past its grace.
    func weakPassphraseWarning(_ home: GnuPGHome) async throws -> PseudoTerminalProcess {
        let gpg = try gpgOnTerminal(home, "--passwd alice@example.org")
        changePassphrase(gpg, to: "abc")
        #expect(
            waitForScreen(gpg, "Choices: Take this one anyway, or yes; Enter new passphrase, or Escape."),
            "screen: \(gpg.screen)")
        await gpg.waitPastTheGrace()
        return gpg
    }

    /// gpg-agent's weak-passphrase warning: its buttons (OK and Cancel) are the choices, said by name, and
    /// typing one answers.
    @Test(.timeLimit(.minutes(5))) func aWeakPassphrasesWarningOffersGpgsChoicesByName() async throws {
        let home = try await GnuPGHome()
        let gpg = try await weakPassphraseWarning(home)
        gpg.type("y\r")
        #expect(await gpg.waitForExit(deadline: .seconds(1)) == nil, "a single letter answered")
        gpg.type("take this one anyway\r")
        #expect(await gpg.waitForExit(deadline: .seconds(30)) == .exited(0), "screen: \(gpg.screen)")
        let spoken = home.spoken
        #expect(spoken.contains("Choices: Take this one anyway, or yes; Enter new passphrase, or Escape."), "\(spoken)")
        // The warning first, with the choices; its reasons follow, for a key to cut short.
        #expect(
            spoken.contains(
                #""lead": "Warning: You have entered an insecure passphrase. Take this one anyway or Enter new passphrase.""#
            ), "\(spoken)")
        #expect(spoken.contains("A passphrase should be at least 8 characters long."), "\(spoken)")
        #expect(!spoken.contains("? yes or no"))
    }

    /// With enforced constraints gpg-agent 2.2 sends its warning as the next GETPIN's error: the news is
    /// said first, then the field, then "Please enter the new passphrase".
    @Test(.timeLimit(.minutes(5))) func anEnforcedConstraintsWarningIsSaidBeforeTheRest() async throws {
        let home = try await GnuPGHome()
        try await home.addAgentOptions(["enforce-passphrase-constraints"])
        let gpg = try gpgOnTerminal(home, "--passwd alice@example.org")
        changePassphrase(gpg, to: "abc")
        #expect(waitForScreen(gpg, "insecure passphrase"), "screen: \(gpg.screen)")
        let strong = "N3w pass 42!"
        gpg.type(strong + "\r")
        #expect(waitForScreen(gpg, "Repeat. Type it", count: 2), "screen: \(gpg.screen)")
        gpg.type(strong + "\r")
        #expect(await gpg.waitForExit(deadline: .seconds(30)) == .exited(0), "screen: \(gpg.screen)")
        let spoken = home.spoken
        let retry = try #require(spoken.split(separator: "\n").first { $0.contains("insecure passphrase") })
        let order = [
            "\"text\": \"Warning: You have entered an insecure passphrase.", "Passphrase. Type it",
            "Please enter the new",
        ]
        .map { retry.range(of: $0)?.lowerBound }
        #expect(
            order.allSatisfy { $0 != nil } && order.compactMap { $0 } == order.compactMap { $0 }.sorted(), "\(retry)")
        for secret in [GnuPGHome.passphrase, strong, "abc"] { #expect(!spoken.contains(secret)) }
    }
}
