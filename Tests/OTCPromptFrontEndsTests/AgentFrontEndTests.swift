import OTCPromptCore
import OTCPromptFrontEnds
import OTCPromptLoop
import Testing

/// systemd's ask files as requests, and each outcome as the datagram the querier hears.
@Suite struct AgentFrontEndTests {
    private let frontEnd = AgentFrontEnd(language: .en, verbosity: .normal)

    private func field(_ request: Request) throws -> PromptConfiguration {
        guard case .field(let configuration) = request.ask else { throw Failure("not a field") }
        return configuration
    }

    @Test func aDiskPassphraseIsAMaskedFieldLabelledByTheMessageWithTheDiskAndTheTimeLeft() throws {
        let file = AskFile(
            pid: 1, socket: "/run/systemd/ask-password/sck.1", notAfter: 95_000_000,
            message: "Please enter passphrase for disk root", id: "cryptsetup:/dev/sda2")
        let request = frontEnd.request(file, from: .system, waiting: 2, nowMicroseconds: 5_000_000)
        let configuration = try field(request)
        #expect(configuration.label == "Please enter passphrase for disk root")
        #expect(configuration.mask && configuration.kind != .code)
        #expect(configuration.timeLimit == .seconds(90))
        #expect(configuration.details == ["For disk sda2.", "2 more waiting."])
        #expect(request.typeAhead == .discarded(grace: ConfirmSession.grace))
    }

    /// Any program of the user's may write in the user's directory and claim the boot disk: the user hears first,
    /// before the question, that it is not the system asking.
    @Test func aRequestOfTheUsersClaimingADiskIsSaidAsAProgramsClaimNotAsTheSystemsDisk() throws {
        let file = AskFile(
            pid: 1, socket: "/run/user/1000/systemd/ask-password/sck.1", message: "Passphrase",
            id: "cryptsetup:/dev/sda2")
        let configuration = try field(frontEnd.request(file, from: .user, waiting: 0, nowMicroseconds: 0))
        #expect(configuration.news == ["Not from the system: a program of yours says this is for disk sda2."])
        #expect(configuration.details.isEmpty)
    }

    @Test func aQuestionOfTheUsersClaimingAHomeIsAProgramsClaimToo() throws {
        let file = AskFile(pid: 1, socket: "/a/s", message: "Unlock?", id: "home:alice", kind: .question)
        let request = frontEnd.request(file, from: .user, waiting: 0, nowMicroseconds: 0)
        #expect(
            request.details == ["Not from the system: a program of yours says this is for the home directory of alice."]
        )
    }

    @Test(arguments: Language.allCases)
    func inEveryLanguageAProgramsClaimIsNotSaidInTheSystemsWords(language: Language) {
        let wording = Wording(language: language)
        for (purpose, name) in [(AskPurpose.disk("sda2"), "sda2"), (.home("alice"), "alice")] {
            let system = wording.agentPurpose(purpose, from: .system)
            let claimed = wording.agentPurpose(purpose, from: .user)
            #expect(system.contains(name) && claimed.contains(name))
            #expect(!claimed.hasPrefix(String(system.prefix { $0 != " " })), "\(claimed) begins as \(system)")
        }
    }

    @Test func echoOneIsAVisibleFieldAndNoIdNoLimitAndNoOneWaitingSayNothingMore() throws {
        let file = AskFile(pid: 1, socket: "/a/s", echo: true, message: "User name", id: "otc-prompt:sudo")
        let configuration = try field(frontEnd.request(file, from: .system, waiting: 0, nowMicroseconds: 0))
        #expect(!configuration.mask)
        #expect(configuration.timeLimit == nil)
        #expect(configuration.details.isEmpty)
    }

    @Test func aMessageIsScrubbedAndItsEarlierLinesComeFirst() throws {
        let file = AskFile(pid: 1, socket: "/a/s", message: "Backup of /home\n\u{1B}[2JPassphrase:")
        let configuration = try field(
            frontEnd.request(file, from: .system, waiting: 0, nowMicroseconds: 0, news: ["Request withdrawn."]))
        #expect(configuration.label == "\\x1B[2JPassphrase:")
        #expect(configuration.details == ["Backup of /home"])
        #expect(configuration.news == ["Request withdrawn."])
    }

    @Test func aRequestWithoutAMessageAsksForAPassword() throws {
        #expect(
            try field(frontEnd.request(AskFile(pid: 1, socket: "/a/s"), from: .system, waiting: 0, nowMicroseconds: 0))
                .label
                == "Password")
        #expect(
            try field(frontEnd.request(AskFile(pid: 1, socket: "/a/s"), from: .user, waiting: 0, nowMicroseconds: 0))
                .label
                == "A program of yours asks: Password")
    }

    /// A program of the user's wrote the system's own words on lines of their own, without `Id=`: what it wrote is
    /// heard after the marking, on one line, and its question is its own.
    @Test func aUserRequestImitatingTheSystemsWordsIsMarkedFirstAndKeptOnOneLine() throws {
        let file = AskFile(
            pid: 1, socket: "/run/user/1000/systemd/ask-password/sck.1",
            message: "For disk sda2.\nPlease enter passphrase for disk sda2")
        let configuration = try field(frontEnd.request(file, from: .user, waiting: 1, nowMicroseconds: 0))
        #expect(configuration.news == ["Not from the system: a program of yours wrote: For disk sda2."])
        #expect(configuration.details == ["1 more waiting."])
        #expect(configuration.label == "A program of yours asks: Please enter passphrase for disk sda2")
        let system = try field(frontEnd.request(file, from: .system, waiting: 1, nowMicroseconds: 0))
        #expect(system.details.first == "For disk sda2.")
        #expect(system.label == "Please enter passphrase for disk sda2")
    }

    @Test(arguments: Language.allCases)
    func inEveryLanguageAUserRequestBeginsWithItsMarking(language: Language) throws {
        let frontEnd = AgentFrontEnd(language: language, verbosity: .normal)
        let wording = Wording(language: language)
        let file = AskFile(pid: 1, socket: "/a/s", message: "x\ny")
        let configuration = try field(frontEnd.request(file, from: .user, waiting: 0, nowMicroseconds: 0))
        #expect(
            configuration.label == wording.agentFromUser("y", kind: .password) && configuration.label.hasSuffix("y"))
        #expect(configuration.news == [wording.agentUserWrote("x")] && configuration.news[0].hasSuffix("x"))
        #expect(!configuration.label.hasPrefix("y") && !configuration.news[0].hasPrefix("x"))
    }

    @Test func echoOneFromTheUsersProgramsIsMaskedUnlessTheUserChoseOtherwise() throws {
        let file = AskFile(pid: 1, socket: "/a/s", echo: true, message: "Passphrase for disk sda2")
        #expect(try field(frontEnd.request(file, from: .user, waiting: 0, nowMicroseconds: 0)).mask)
        let chosen = AgentFrontEnd(language: .en, verbosity: .normal, echoesUserRequests: true)
        #expect(try !field(chosen.request(file, from: .user, waiting: 0, nowMicroseconds: 0)).mask)
        #expect(try !field(frontEnd.request(file, from: .system, waiting: 0, nowMicroseconds: 0)).mask)
    }

    @Test func aLimitFurtherOffThanADayIsNoLimit() throws {
        let file = AskFile(pid: 1, socket: "/a/s", notAfter: .max, message: "Passphrase")
        #expect(try field(frontEnd.request(file, from: .system, waiting: 0, nowMicroseconds: 5)).timeLimit == nil)
    }

    @Test func otcPromptsQuestionHasItsCallersLabels() throws {
        let file = AskFile(pid: 1, socket: "/a/s", message: "Delete the key?", kind: .question, okLabel: "Delete")
        let request = frontEnd.request(file, from: .user, waiting: 1, nowMicroseconds: 0)
        guard case .question(let question) = request.ask else { throw Failure("not a question") }
        #expect(question.question == "A program of yours asks: Delete the key?")
        #expect(question.labels.yes == "Delete")
        #expect(request.details == ["1 more waiting."])
    }

    @Test func otcPromptsNoticeIsTakenWithEnter() throws {
        let file = AskFile(pid: 1, socket: "/a/s", message: "Touch your key", kind: .notice)
        guard case .notice(let notice) = frontEnd.request(file, from: .user, waiting: 0, nowMicroseconds: 0).ask else {
            throw Failure("not a notice")
        }
        #expect(notice.takesEnter && notice.message == "A program of yours says: Touch your key")
    }

    /// After a quiet wait the question itself is the news: no word comes before it (the agent rings the terminal's
    /// bell instead), so that it ends within 3 s; only the news of the last request comes first.
    @Test(arguments: Verbosity.allCases)
    func aRequestAfterAQuietWaitOpensWithItsQuestion(verbosity: Verbosity) throws {
        let agent = AgentFrontEnd(language: .en, verbosity: verbosity)
        let file = AskFile(pid: 1, socket: "/a/s", message: "Passphrase for backup")
        let cued = try field(
            agent.request(file, from: .system, waiting: 0, nowMicroseconds: 0, news: ["Request withdrawn."]))
        #expect(cued.news == ["Request withdrawn."])
        var session = PromptSession(configuration: cued)
        guard case .announce(let opening)? = session.start().first else { throw Failure("no opening") }
        if verbosity != .terse {
            #expect(opening.text.hasPrefix("Request withdrawn. Passphrase for backup."))
        }
        #expect(opening.lead?.text == "Passphrase for backup. Type it, then Enter.")
        let plain = try field(agent.request(file, from: .system, waiting: 0, nowMicroseconds: 0))
        #expect(plain.news.isEmpty)
    }

    @Test func waitingIsANoticeNoKeyAnswers() throws {
        guard case .notice(let notice) = frontEnd.waiting(news: ["Request withdrawn."]).ask else {
            throw Failure("not a notice")
        }
        #expect(!notice.takesEnter)
        #expect(notice.message == "Waiting for password requests.")
        #expect(notice.news == ["Request withdrawn."])
    }

    @Test(arguments: [
        (PromptOutcome.cancelled, AskFile.Kind.password, AgentAnswer.cancel), (.confirmed(true), .question, .yes),
        (.confirmed(false), .question, .no), (.confirmed(true), .notice, .acknowledged), (.cancelled, .notice, .cancel),
    ])
    func eachAnswerIsItsDatagram(outcome: PromptOutcome, kind: AskFile.Kind, answer: AgentAnswer) {
        #expect(AgentFrontEnd.answer(outcome, kind: kind) == answer)
    }

    @Test func aSubmittedSecretIsSentAsItIs() {
        #expect(AgentFrontEnd.answer(.submitted("hunter2"), kind: .password) == .password("hunter2"))
    }

    @Test(arguments: [
        PromptOutcome.callerGone, .timedOut, .terminalClosed, .signalled(15), .speechFailed("no voice"),
    ])
    func aWithdrawnOrInterruptedRequestIsNotAnswered(outcome: PromptOutcome) {
        #expect(AgentFrontEnd.answer(outcome, kind: .password) == nil)
        #expect(AgentFrontEnd.answer(nil, kind: .password) == nil)
    }

    @Test func onlyTheCallerGoneOrTheTimePassedIsAWithdrawal() {
        #expect(AgentFrontEnd.wasWithdrawn(.callerGone) && AgentFrontEnd.wasWithdrawn(.timedOut))
        #expect(!AgentFrontEnd.wasWithdrawn(.cancelled) && !AgentFrontEnd.wasWithdrawn(nil))
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// After a request ended under the user's fingers, what comes next holds their keys until they have heard it.
    @Test func afterASwitchTheNextRequestAndTheWaitHoldTheKeys() throws {
        let file = AskFile(pid: 1, socket: "/a/s", message: "Passphrase")
        let held = TypeAheadRule.heldUntilHeard(quiet: TypeAheadRule.switchQuiet)
        #expect(
            frontEnd.request(file, from: .user, waiting: 0, nowMicroseconds: 0, afterSwitch: true).typeAhead == held)
        let question = AskFile(pid: 1, socket: "/a/s", message: "Allow?", kind: .question)
        #expect(
            frontEnd.request(question, from: .user, waiting: 0, nowMicroseconds: 0, afterSwitch: true).typeAhead == held
        )
        #expect(frontEnd.waiting(news: ["Request withdrawn."], afterSwitch: true).typeAhead == held)
        #expect(frontEnd.waiting().typeAhead == .discarded(grace: ConfirmSession.grace))
    }

    @Test func aRequestPartOfWhichWasLeftOutSaysSo() throws {
        var file = AskFile(pid: 1, socket: "/a/s", message: "Passphrase")
        file.leftSomethingOut = true
        let configuration = try field(frontEnd.request(file, from: .system, waiting: 0, nowMicroseconds: 0))
        #expect(configuration.details == ["Part of this request was left out."])
    }

    /// A key on the wait is answered with what it did: nothing, for there is nothing to answer; `?` reads the wait.
    @Test func aKeyOnTheWaitSaysThereIsNothingToAnswerAndQuestionMarkReadsItAgain() throws {
        guard case .notice(var wait) = frontEnd.waiting().ask else { throw Failure("not a notice") }
        let opening = wait.start()
        for key in [Key.character("a"), .submit, .tab, .ignored] {
            #expect(
                wait.handle(key) == [.announce(Announcement(.help, "No request to answer. Escape stops the agent."))])
        }
        let asked = wait.handle(.character("?"))
        #expect(asked == opening)
        #expect(wait.handle(.escape).last == .cancel)
    }

    /// What a request is for, in the news and the readback: the system's disk by its name; anything a program of the
    /// user's claims, by its question (never as the system's disk).
    @Test func aRequestsSubjectIsTheSystemsDiskOrItsQuestion() {
        let disk = AskFile(pid: 1, socket: "/a/s", message: "Passphrase for sda2_crypt", id: "cryptsetup:/dev/sda2")
        #expect(frontEnd.subject(of: disk, from: .system) == "disk sda2")
        #expect(frontEnd.subject(of: disk, from: .user) == "Passphrase for sda2_crypt")
        let bare = AskFile(pid: 1, socket: "/a/s")
        #expect(frontEnd.subject(of: bare, from: .user) == "Password")
        let asked = AskFile(pid: 1, socket: "/a/s", message: "Passphrase for beta: ")
        #expect(frontEnd.subject(of: asked, from: .user) == "Passphrase for beta")
        let hostile = AskFile(
            pid: 1, socket: "/a/s", message: "Line one\n\u{1B}[2J" + String(repeating: "x", count: 200))
        let subject = frontEnd.subject(of: hostile, from: .user)
        #expect(!subject.contains("\u{1B}") && subject.count <= Wording.agentSubjectLimit)
        let wording = Wording(language: .en)
        #expect(wording.agentNewRequests(1, first: "disk sda2") == "New request waiting: disk sda2.")
        #expect(wording.agentNewRequests(2, first: "disk sda2") == "2 new requests waiting.")
        #expect(wording.agentWaiting(0, subjects: []) == "Nothing else waiting.")
        #expect(
            wording.agentWaiting(5, subjects: ["a", "b", "c", "d", "e"]) == "5 more waiting: a, b, c.")
    }
}
