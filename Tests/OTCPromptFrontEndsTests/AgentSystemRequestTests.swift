import OTCPromptCore
import OTCPromptFrontEnds
import OTCPromptLoop
import Testing

/// systemd's own requests said as what they ask, in the user's words, and a retry told as one.
@Suite struct AgentSystemRequestTests {
    private let frontEnd = AgentFrontEnd(language: .en, verbosity: .normal)

    private func field(_ request: Request) throws -> PromptConfiguration {
        guard case .field(let configuration) = request.ask else { throw AgentFrontEndTests.Failure("not a field") }
        return configuration
    }

    private let disk = AskFile(
        pid: 300, socket: "/run/systemd/ask-password/sck.1", acceptCached: true,
        message: "Please enter passphrase for disk luks-a1aaba2d-43f8-4a96-b0e1-c8d3c5650066:",
        icon: "drive-harddisk", id: "cryptsetup:/dev/disk/by-uuid/a1aaba2d-43f8-4a96-b0e1-c8d3c5650066")

    @Test func aDisksPassphraseIsLabelledShortlyWithItsDiskAndNotNamedTwice() throws {
        let configuration = try field(frontEnd.request(disk, from: .system, waiting: 0, nowMicroseconds: 0))
        #expect(configuration.label == "Passphrase for disk a1aaba2d")
        #expect(configuration.details.isEmpty)
        #expect(configuration.news.isEmpty)
    }

    @Test func theSameProcessAskingAgainOpensWithTheNewsOfTheWrongPassphrase() throws {
        let configuration = try field(
            frontEnd.request(
                disk, from: .system, waiting: 1, nowMicroseconds: 0, news: ["Request withdrawn."], attempt: 2))
        #expect(configuration.news == ["Request withdrawn.", "Wrong passphrase, try 2."])
        #expect(configuration.details == ["1 more waiting."])
        #expect(AgentFrontEnd.cue(disk, from: .system, attempt: 2) == .retry)
        #expect(AgentFrontEnd.cue(disk, from: .system, attempt: 1) == .firstTry)
    }

    @Test func aFIDO2PINSaysItIsAPINAndThatTheKeyMayNeedATouch() throws {
        let pin = AskFile(
            pid: 300, socket: "/run/systemd/ask-password/sck.2", message: "Please enter security token PIN:")
        let configuration = try field(frontEnd.request(pin, from: .system, waiting: 0, nowMicroseconds: 0, attempt: 2))
        #expect(configuration.label == "Security key PIN")
        #expect(configuration.details == ["After the PIN, the security key may need a touch."])
        #expect(configuration.news == ["Wrong PIN, try 2."])
        #expect(AgentFrontEnd.cue(pin, from: .system, attempt: 1) == .pin)
    }

    /// Its disk, read from its asker's command line, is said; once its PIN is sent the key wants a touch, said at once.
    @Test func aFIDO2PINNamesItsDiskAndIsFollowedByTouch() throws {
        let pin = AskFile(
            pid: 300, socket: "/run/systemd/ask-password/sck.2", message: "Please enter security token PIN:")
        let configuration = try field(
            frontEnd.request(pin, from: .system, waiting: 0, nowMicroseconds: 0, disk: "root"))
        #expect(configuration.label == "Security key PIN for disk root")
        #expect(frontEnd.afterAnswer(pin, from: .system) == "Touch your security key.")
        // Not a passphrase's, nor a PKCS#11 card's (no touch), nor a program of the user's claiming the words.
        #expect(frontEnd.afterAnswer(disk, from: .system) == nil)
        let card = AskFile(
            pid: 300, socket: "/run/systemd/ask-password/sck.2",
            message: "Please enter PIN for security token 'Card' in order to unlock home:")
        #expect(frontEnd.afterAnswer(card, from: .system) == nil)
        #expect(frontEnd.afterAnswer(pin, from: .user) == nil)
        // A disk the request names itself is kept.
        let named = try field(frontEnd.request(disk, from: .system, waiting: 0, nowMicroseconds: 0, disk: "other"))
        #expect(named.label == "Passphrase for disk a1aaba2d")
    }

    /// A token that counts its own tries says which: its count is the one said.
    @Test func aTokensOwnTryCountIsTheOneSaid() throws {
        let pin = AskFile(
            pid: 300, socket: "/run/systemd/ask-password/sck.2",
            message: "Please enter PIN for security token 'Card' in order to unlock home (try #3):")
        let configuration = try field(frontEnd.request(pin, from: .system, waiting: 0, nowMicroseconds: 0))
        #expect(configuration.label == "PIN of security token Card, for disk home")
        #expect(configuration.news == ["Wrong PIN, try 3."])
    }

    /// A program of the user's may copy systemd's words: they stay its own text, and its claim stays a claim.
    @Test func fromTheUsersDirectorySystemdsWordsAreNotReadAsTheSystems() throws {
        let configuration = try field(frontEnd.request(disk, from: .user, waiting: 0, nowMicroseconds: 0, attempt: 2))
        #expect(configuration.label.contains("Please enter passphrase for disk luks-a1aaba2d"))
        // Its claim is said first as a program's; no retry's news is made of its words.
        #expect(configuration.news == [Wording(language: .en).agentPurpose(AskPurpose(id: disk.id)!, from: .user)])
        #expect(!configuration.news.contains { $0.contains("Wrong") })
        #expect(AgentFrontEnd.systemAsk(disk, from: .user) == nil)
    }

    @Test(arguments: Language.allCases)
    func inEveryLanguageTheLabelsNameTheDiskAndTheNewsTheTry(language: Language) {
        let wording = Wording(language: language)
        for secret in [
            SystemAsk.Secret.passphrase, .recoveryKey, .passphraseOrRecoveryKey, .securityTokenPIN(token: "Card"),
        ] {
            let asked = SystemAsk(secret, disk: "vda7")
            #expect(wording.systemAskLabel(asked).contains("vda7"), "\(language) \(secret)")
            #expect(wording.systemAskRetry(asked, attempt: 4).contains("4"), "\(language) \(secret)")
        }
        #expect(wording.systemAskLabel(SystemAsk(.securityTokenPIN(token: "Card"), disk: "vda7")).contains("Card"))
        for secret in [SystemAsk.Secret.tpm2PIN, .tokenPIN, .securityTokenPIN(token: nil)] {
            #expect(!wording.systemAskLabel(SystemAsk(secret)).isEmpty)
        }
        let details = wording.systemAskDetails(
            SystemAsk(.securityTokenPIN(token: nil), isVerification: true, isLastTry: true))
        #expect(details.count == 3 && details.allSatisfy { $0.hasSuffix(".") })
    }
}
