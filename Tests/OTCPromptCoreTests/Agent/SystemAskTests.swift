import OTCPromptCore
import Testing

/// systemd's own requests read for what they ask, from the sentences systemd 252 to 259 write.
@Suite struct SystemAskTests {
    static let sentences: [(String, SystemAsk)] = [
        ("Please enter passphrase for disk root:", SystemAsk(.passphrase, disk: "root")),
        ("Please enter recovery key for disk root:", SystemAsk(.recoveryKey, disk: "root")),
        ("Please enter passphrase or recovery key for disk root:", SystemAsk(.passphraseOrRecoveryKey, disk: "root")),
        (
            "Please enter passphrase for disk root (verification):",
            SystemAsk(.passphrase, disk: "root", isVerification: true)
        ),
        ("Please enter security token PIN:", SystemAsk(.securityTokenPIN(token: nil))),
        ("Please enter TPM2 PIN:", SystemAsk(.tpm2PIN)),
        ("Please enter LUKS2 token PIN:", SystemAsk(.tokenPIN)),
        (
            "Please enter PIN for security token 'Card 1' in order to unlock home:",
            SystemAsk(.securityTokenPIN(token: "Card 1"), disk: "home")
        ),
        (
            "Please enter PIN for security token 'Card 1' in order to unlock home (try #2):",
            SystemAsk(.securityTokenPIN(token: "Card 1"), disk: "home", attempt: 2)
        ),
        (
            "Please enter correct PIN for security token 'Card 1' in order to unlock home (final try):",
            SystemAsk(.securityTokenPIN(token: "Card 1"), disk: "home", isLastTry: true)
        ),
        (
            "PIN has been entered incorrectly previously, please enter correct PIN for security token 'Card 1' in order "
                + "to unlock home:",
            SystemAsk(.securityTokenPIN(token: "Card 1"), disk: "home", hadWrongTries: true)
        ),
    ]

    @Test(arguments: sentences)
    func eachOfSystemdsSentencesIsReadForWhatItAsks(message: String, expected: SystemAsk) {
        #expect(SystemAsk(message: message) == expected)
    }

    /// rd.luks.uuid= names the volume luks-UUID: 36 characters read aloud tell the user nothing the first eight do not.
    @Test func aVolumeNamedByItsUUIDIsSaidByItsFirstEightDigits() {
        let asked = SystemAsk(message: "Please enter passphrase for disk luks-a1aaba2d-43f8-4a96-b0e1-c8d3c5650066:")
        #expect(asked?.disk == "a1aaba2d")
        #expect(SystemAsk.diskName("a1aaba2d-43f8-4a96-b0e1-c8d3c5650066") == "a1aaba2d")
        #expect(SystemAsk.diskName("luks-not-a-uuid") == "luks-not-a-uuid")
    }

    /// Debian's installer names a volume after its device (`sda2_crypt`): said as the device, as the boot prompt says it.
    @Test func aVolumeNamedAsDebiansInstallerNamesItIsSaidByItsDevice() {
        #expect(SystemAsk(message: "Please enter passphrase for disk sda2_crypt:")?.disk == "sda2")
        #expect(SystemAsk.diskName("nvme0n1p3_crypt on /") == "nvme0n1p3")
        #expect(SystemAsk.diskName("_crypt") == "_crypt")
    }

    /// A FIDO2 PIN names no disk: systemd-cryptsetup's command line does, and nothing else's is read as one.
    @Test func aFIDO2PINsDiskIsTheVolumeSystemdCryptsetupAttaches() {
        let attach = ["/usr/lib/systemd/systemd-cryptsetup", "attach", "root", "/dev/vda2", "-", "fido2-device=auto"]
        #expect(SystemAsk.cryptsetupVolume(arguments: attach) == "root")
        #expect(
            SystemAsk.cryptsetupVolume(arguments: ["systemd-cryptsetup", "attach", "sda2_crypt", "/dev/sda2"]) == "sda2"
        )
        for other in [
            ["systemd-cryptsetup", "detach", "root"], ["systemd-cryptsetup", "attach"],
            ["/bin/sh", "attach", "root"], ["systemd-cryptsetup", "attach", ""], [],
        ] {
            #expect(SystemAsk.cryptsetupVolume(arguments: other) == nil, "\(other)")
        }
    }

    /// systemd's friendly name: DESCRIPTION (VOLUME) on MOUNT; the description is what the user named or bought.
    @Test func theDescriptionIsSaidRatherThanTheVolumeAndTheMountPointIsLeftOut() {
        #expect(
            SystemAsk.diskName("Samsung SSD 870 (luks-a1aaba2d-43f8-4a96-b0e1-c8d3c5650066) on /home")
                == "Samsung SSD 870")
        #expect(SystemAsk.diskName("data on /srv") == "data")
        #expect(SystemAsk.diskName("Backup (backup)") == "Backup")
    }

    @Test(arguments: [
        nil, "", "Passphrase", "Please enter passphrase for disk root", "Please enter a passphrase for disk root:",
        "Please enter password for disk root:", "Enter PIN for token:", "Please enter PIN for security token root:",
    ])
    func anyOtherTextIsNoneOfSystemdsSentences(message: String?) {
        #expect(SystemAsk(message: message) == nil)
    }

    @Test func outsideTextInAnameIsScrubbed() {
        let asked = SystemAsk(message: "Please enter passphrase for disk \u{1b}[2Jroot:")
        #expect(asked?.disk?.contains("\u{1b}") == false)
    }

    @Test func onlyPINsArePINs() {
        #expect(
            SystemAsk(.tpm2PIN).isPIN && SystemAsk(.securityTokenPIN(token: nil)).isPIN && SystemAsk(.tokenPIN).isPIN)
        #expect(!SystemAsk(.passphrase).isPIN && !SystemAsk(.recoveryKey).isPIN)
    }
}

/// The tries one process makes for the same thing, counted from the agent's own answers.
@Suite struct AgentRetriesTests {
    @Test func theSameProcessAskingTheSameAgainIsTheNextTry() {
        var retries = AgentRetries()
        #expect(retries.attempt(pid: 42, key: "id:cryptsetup:/dev/vda") == 1)
        retries.answered(pid: 42, key: "id:cryptsetup:/dev/vda")
        #expect(retries.attempt(pid: 42, key: "id:cryptsetup:/dev/vda") == 2)
        retries.answered(pid: 42, key: "id:cryptsetup:/dev/vda")
        #expect(retries.attempt(pid: 42, key: "id:cryptsetup:/dev/vda") == 3)
        // Another disk of the same process, or the same disk asked by another process, is a first try.
        #expect(retries.attempt(pid: 42, key: "id:cryptsetup:/dev/vdb") == 1)
        #expect(retries.attempt(pid: 43, key: "id:cryptsetup:/dev/vda") == 1)
        #expect(retries.attempt(pid: nil, key: "id:cryptsetup:/dev/vda") == 1)
    }

    @Test func aProcessThatEndedIsForgottenSoItsReusedPIDStartsAgain() {
        var retries = AgentRetries()
        retries.answered(pid: 42, key: "tpm2-pin")
        #expect(retries.awaitsAskers)
        retries.forget { $0 == 42 }
        #expect(retries.attempt(pid: 42, key: "tpm2-pin") == 1)
        #expect(!retries.awaitsAskers)
    }

    @Test func whatIsRememberedIsBounded() {
        var retries = AgentRetries()
        for pid in Int32(1)...40 { retries.answered(pid: pid, key: "k") }
        #expect(retries.attempt(pid: 1, key: "k") == 1)
        #expect(retries.attempt(pid: 40, key: "k") == 2)
    }

    /// systemd's PIN requests carry no Id=: what they ask is the key.
    @Test func aPINWithoutAnIdIsRememberedByWhatItAsks() {
        #expect(
            AgentRetries.key(id: "cryptsetup:/dev/vda", asked: SystemAsk(.passphrase, disk: "vda"))
                == "id:cryptsetup:/dev/vda")
        #expect(AgentRetries.key(id: nil, asked: SystemAsk(.tpm2PIN)) == "tpm2-pin")
        #expect(
            AgentRetries.key(id: nil, asked: SystemAsk(.securityTokenPIN(token: nil)))
                != AgentRetries.key(id: nil, asked: SystemAsk(.tpm2PIN)))
    }
}
