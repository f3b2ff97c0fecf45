import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// With the real gpg-agent and its pinentry, by ear: what is asked and how to answer first, gpg's description after
/// it; the key's ID said in groups and "EDDSA" as letters by the voice, while the screen and the log's text keep
/// them whole; a CONFIRM's question first too.
extension PinentryEndToEndTests {
    /// The speech log's openings as JSON objects.
    func openings(_ home: GnuPGHome) -> [[String: Any]] {
        home.spoken.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }.filter { $0["event"] as? String == "prompt" }
    }

    @Test(.timeLimit(.minutes(5))) func theQuestionComesFirstAndTheKeyIDIsSpelledForTheVoiceOnly() async throws {
        let home = try await GnuPGHome()
        let gpg = try gpgOnTerminal(home, "--yes --sign --output '\(home.path)/message.gpg' '\(home.path)/message'")
        #expect(waitForScreen(gpg, "Passphrase. Type it"), "screen: \(gpg.screen)")
        gpg.type([0x1B])
        #expect(await gpg.waitForExit(deadline: .seconds(30)) == .exited(2), "screen: \(gpg.screen)")
        let opening = try #require(openings(home).first)
        #expect(opening["lead"] as? String == "Passphrase. Type it, then Enter.", "\(opening)")
        let text = try #require(opening["text"] as? String)
        let said = try #require(opening["said"] as? String)
        // gpg's "255-bit EDDSA key, ID 1C0D272A3F88E4B9,": shown whole, spelled for the voice.
        let id = try #require(
            text.firstRange(of: try Regex("ID ([0-9A-F]{16})")).map { String(text[$0].dropFirst(3)) }, "\(text)")
        #expect(visibleText(gpg.screen).contains("255-bit EDDSA key, ID \(id),"), "the screen shows them whole")
        let spelled = stride(from: 0, to: 16, by: 4).map {
            Array(id.dropFirst($0).prefix(4)).map(String.init).joined(separator: " ")
        }.joined(separator: ", ")
        #expect(said.contains("255-bit E D D S A key, ID \(spelled),"), "\(said)")
        #expect(text.hasPrefix("Passphrase. Type it, then Enter. Please enter the passphrase"), "\(text)")
        for doubled in [",.", ":.", ":,", ". ?"] { #expect(!said.contains(doubled), "\(doubled) in \(said)") }
    }

    /// gpg --delete-secret-keys: gpg-agent's CONFIRM ("Do you really want to permanently delete the OpenPGP secret
    /// key:", the key's lines, a lone "?") is asked as its question with gpg's choices, the key after it.
    @Test(.timeLimit(.minutes(5))) func aConfirmationSaysItsQuestionAndChoicesFirst() async throws {
        let home = try await GnuPGHome()
        let listed = try await home.gpg(["--batch", "--with-colons", "--list-secret-keys", "alice@example.org"]).output
        let fingerprint = try #require(
            listed.split(separator: "\n").first { $0.hasPrefix("fpr:") }?.split(
                separator: ":", omittingEmptySubsequences: false
            ).dropFirst(9).first.map(String.init))
        let gpg = try gpgOnTerminal(home, "--delete-secret-keys \(fingerprint)")
        // gpg's own two questions on the terminal first.
        #expect(waitForScreen(gpg, "Delete this key from the keyring?"), "screen: \(gpg.screen)")
        gpg.type("y\r")
        #expect(waitForScreen(gpg, "really delete?"), "screen: \(gpg.screen)")
        gpg.type("y\r")
        #expect(waitForScreen(gpg, "Delete key or No."), "screen: \(gpg.screen)")
        // gpg asks again for the subkey after an answer: the first question is all this test needs.
        gpg.sendSignal(SIGTERM)
        _ = await gpg.waitForExit(deadline: .seconds(30))
        let opening = try #require(openings(home).first)
        let lead = "Do you really want to permanently delete the OpenPGP secret key? Delete key or No."
        #expect(opening["lead"] as? String == lead, "\(opening)")
        let text = try #require(opening["text"] as? String)
        #expect(text.hasPrefix(lead + " \"Alice <alice@example.org>\""), "\(text)")
        #expect(text.contains("Choices: Delete key, or yes; No, or Escape."), "\(text)")
    }
}
