import OTCPromptCore
import OTCPromptFrontEnds
import OTCPromptLoop
import Testing

/// A request whose caller left no terminal, posted for the password agent: the ask file it becomes, and what the
/// agent's answer means for the caller.
@Suite struct AgentPostingTests {
    private let options = PromptConfiguration(length: 6, language: .en)

    private func askpass(_ prompt: String, _ environment: [String: String] = [:]) -> Request {
        AskpassFrontEnd.request(prompt: prompt, configuration: options, environment: environment, askedAgain: false)
    }

    private func file(_ request: Request) -> AskFile {
        AgentPosting.askFile(for: request, pid: 4242, socket: "/run/user/0/systemd/ask-password/sck.1", notAfter: 99)
    }

    @Test func aPasswordIsAMaskedPasswordOfSystemdsProtocol() {
        let posted = file(askpass("Enter passphrase for key '/home/joe/.ssh/id_ed25519': "))
        #expect(posted.kind == .password)
        #expect(!posted.echo)
        #expect(posted.pid == 4242)
        #expect(posted.socket == "/run/user/0/systemd/ask-password/sck.1")
        #expect(posted.notAfter == 99)
        #expect(posted.message?.contains("Enter passphrase for key") == true, "\(posted)")
    }

    @Test func aVisibleFieldIsPostedWithEcho() {
        let posted = file(askpass("Username for 'https://example.org': "))
        #expect(posted.kind == .password)
        #expect(posted.echo)
    }

    @Test func aConfirmationIsAQuestionWithItsDetailsInTheMessage() {
        let request = askpass(
            "Allow use of key /home/joe/.ssh/id_ed25519?\nKey fingerprint SHA256:abc.",
            ["SSH_ASKPASS_PROMPT": "confirm"])
        let posted = file(request)
        #expect(posted.kind == .question)
        #expect(AgentPosting.kind(of: request) == .question)
        #expect(posted.message?.contains("Allow use of key") == true, "\(posted)")
        #expect(posted.message?.contains("SHA256:abc") == true, "\(posted)")
    }

    @Test func aQuestionsLabelsArePostedForTheAgentToOffer() {
        let question = ConfirmSession(
            question: "Delete the key?", labels: ConfirmLabels(yes: "Delete", no: "Keep", cancel: "Stop"))
        let posted = file(.question(question))
        #expect(posted.kind == .question)
        #expect(posted.message == "Delete the key?")
        #expect([posted.okLabel, posted.notOKLabel, posted.cancelLabel] == ["Delete", "Keep", "Stop"])
    }

    @Test func aNoticeIsANotice() {
        let posted = file(.notice(NoticeSession(message: "Please insert the card", takesEnter: true)))
        #expect(posted.kind == .notice)
        #expect(posted.message == "Please insert the card")
    }

    @Test func theAnswerBecomesTheOutcomeAPromptWouldHaveHad() {
        let secret: SecretBytes = "correct horse"
        #expect(AgentPosting.outcome(.password(secret)) == .submitted("correct horse"))
        #expect(AgentPosting.outcome(.yes) == .confirmed(true))
        #expect(AgentPosting.outcome(.no) == .confirmed(false))
        #expect(AgentPosting.outcome(.acknowledged) == .confirmed(true))
        #expect(AgentPosting.outcome(.cancel) == .cancelled)
    }

    /// Nobody answered: the caller hears a cancel, never a yes.
    @Test func noAnswerIsACancel() {
        #expect(AgentPosting.outcome(nil) == .cancelled)
        #expect(Delivery(AgentPosting.outcome(nil)) == .status(130))
    }

    @Test(arguments: [(nil, 90), (.zero, 90), (.seconds(5), 5), (.seconds(300), 300)] as [(Duration?, Int64)])
    func theQuestionWaitsTheCallersLimitElseNinetySeconds(_ callerLimit: Duration?, _ seconds: Int64) {
        #expect(AgentPosting.timeLimit(callerLimit) == .seconds(seconds))
    }
}
