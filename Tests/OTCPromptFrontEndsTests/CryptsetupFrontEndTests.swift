import OTCPromptCore
import OTCPromptFrontEnds
import OTCPromptLoop
import OTCPromptSettings
import Testing

/// `--cryptsetup`: chosen from the command line, the disk's field from cryptroot's variables, and the key on stdout
/// with no line break (cryptsetup takes every byte it reads as the key).
@Suite struct CryptsetupFrontEndTests {
    @Test func aRetryIsAMaskedFieldWithTheNewsFirst() {
        let request = CryptsetupFrontEnd.request(
            environment: ["CRYPTTAB_SOURCE": "/dev/sda2", "CRYPTTAB_TRIED": "1", "CRYPTTAB_OPTION_tries": "3"],
            language: .en, verbosity: .normal, timeLimit: nil)
        guard case .field(let field) = request.ask else {
            Issue.record("not a field: \(request.ask)")
            return
        }
        #expect(field.mask)
        #expect(field.label == "Unlock disk sda2")
        #expect(request.details.first == "Wrong passphrase, try 2 of 3.")
    }

    @Test func theAnswerIsAKeyWithNoLineBreakAndEverythingElseAsForAnyCaller() {
        let secret: SecretBytes = "pä ss"
        #expect(CryptsetupFrontEnd.delivery(.submitted(secret)) == .key(secret))
        #expect(CryptsetupFrontEnd.delivery(.cancelled) == Delivery(.cancelled))
        #expect(CryptsetupFrontEnd.delivery(.timedOut) == Delivery(.timedOut))
    }
}
