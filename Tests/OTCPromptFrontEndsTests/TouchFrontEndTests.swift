import OTCPromptCore
import OTCPromptFrontEnds
import OTCPromptSettings
import Testing

/// ssh's security-key notice (chosen from the askpass call's SSH_ASKPASS_PROMPT: `FrontEndChoiceTests`), said as ssh
/// words it, nothing asked.
@Suite struct TouchFrontEndTests {
    private static let presence = "Confirm user presence for key ED25519-SK SHA256:abc"
    private let options = PromptConfiguration(length: 6, language: .de, verbosity: .terse, timeLimit: .seconds(30))

    @Test func sshsRequestForATouchSaysWhatToDoWithItsOwnLineOnRequestInTheOptionsLanguageAndNoField() throws {
        let request = TouchFrontEnd.request(prompt: Self.presence, configuration: options)
        guard case .notice(let notice) = request.ask else { throw Failure("not a notice: \(request.ask)") }
        #expect(notice.message == "Berühren Sie Ihren Sicherheitsschlüssel.")
        #expect(notice.details == [Self.presence])
        #expect(notice.detailsTold == .onReadBack)
        #expect(notice.shownLines == [Self.presence], "ssh's line on the screen, above what to do")
        #expect(!notice.takesEnter, "nothing to answer: ssh ends it")
        #expect(notice.wording.language == .de)
        #expect(!request.isField)
        // A key typed just before it appeared was meant for something else.
        #expect(request.typeAhead == .discarded(grace: ConfirmSession.grace))
    }

    @Test func otherWordsAreSaidAsTheCallerGaveThem() throws {
        let request = TouchFrontEnd.request(prompt: "Tap your YubiKey now", configuration: options)
        guard case .notice(let notice) = request.ask else { throw Failure("not a notice: \(request.ask)") }
        #expect(notice.message == "Tap your YubiKey now")
        #expect(notice.details.isEmpty && notice.detailsTold == .withTheOpening)
    }

    @Test func aMultiLineNoticeSaysItsLastLineAndShowsTheOthersAsDetails() throws {
        let request = TouchFrontEnd.request(
            prompt: "(joe@host) Confirm user presence for key\nED25519-SK SHA256:\u{1b}[31mabc", configuration: options)
        guard case .notice(let notice) = request.ask else { throw Failure("not a notice: \(request.ask)") }
        // The question's line, made visible: ssh's text reaches no terminal raw.
        #expect(notice.message.hasPrefix("ED25519-SK SHA256:") && !notice.message.contains("\u{1b}"))
        #expect(notice.details == ["(joe@host) Confirm user presence for key"])
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
