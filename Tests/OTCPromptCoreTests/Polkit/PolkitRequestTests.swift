import Testing

@testable import OTCPromptCore

/// What a BeginAuthentication says, in which order, and who is asked first.
@Suite struct PolkitRequestTests {
    private let request = PolkitRequest(
        actionID: "org.freedesktop.policykit.exec",
        message: "Authentication is needed to run `/usr/bin/id' as the super user",
        details: ["polkit.subject-pid": "41", "polkit.caller-pid": "40", "program": "/usr/bin/id"],
        cookie: "3-abc-1",
        identities: [.user(uid: 1001), .other(kind: "unix-group"), .user(uid: 1000), .user(uid: 1001)])

    @Test func theAskingProcessIsTheCallerElseTheSubject() {
        #expect(request.askingProcess == 40)
        var subjectOnly = request
        subjectOnly.details = ["polkit.subject-pid": "41"]
        #expect(subjectOnly.askingProcess == 41)
        subjectOnly.details = ["polkit.caller-pid": "x"]
        #expect(subjectOnly.askingProcess == nil)
    }

    @Test func theInvokingUserIsOfferedFirstAndEachUserOnce() {
        #expect(request.users(invokingUID: 1000) == [1000, 1001])
        #expect(request.users(invokingUID: 1001) == [1001, 1000])
        #expect(request.users(invokingUID: 5) == [1001, 1000])
    }

    @Test(arguments: Language.allCases)
    func pkexecsShortQuestionSaysWhatRunsThenWhosePasswordAndTheMessageAndTheAskerAreOnRequest(language: Language) {
        var pkexec = request
        pkexec.details["user"] = "root"
        let field = PolkitWording(language: language).field(
            request: pkexec, asker: "pkexec", user: "admin", prompt: "Password: ", echo: false,
            news: [language.said("polkit.wrongPassword", 2)])
        #expect(field.label == language.said("polkit.question.run", "id", "root", "admin"))
        // Whose password is in the question itself.
        #expect(field.details == [])
        #expect(field.aboutOnRequest == [request.message, language.said("polkit.asker", "pkexec")])
        #expect(field.news == [language.said("polkit.wrongPassword", 2)])
        #expect(field.mask)
        #expect(field.kind == .freeText)
    }

    @Test func pkexecsCommandLineNamesTheProgramAndTheUserItRunsAs() {
        let bare = PolkitRequest(
            actionID: "org.freedesktop.policykit.exec", message: "m", cookie: "c", identities: [])
        let run = bare.withPkexecCommand(["pkexec", "--disable-internal-agent", "/usr/bin/id", "-u"])
        #expect(run.details["program"] == "/usr/bin/id" && run.details["user"] == "root")
        let asJoe = bare.withPkexecCommand(["/usr/bin/pkexec", "--user", "joe", "--keep-cwd", "--", "vi", "/etc/x"])
        #expect(asJoe.details["program"] == "vi" && asJoe.details["user"] == "joe")
        #expect(PolkitWording(language: .en).question(asJoe, user: "admin") == "To run vi as joe: password of admin")
        // No program (pkexec runs a shell), an option it does not know, or another caller: nothing is guessed.
        #expect(bare.withPkexecCommand(["pkexec"]) == bare)
        #expect(bare.withPkexecCommand(["pkexec", "--version"]) == bare)
        #expect(bare.withPkexecCommand(["sudo", "id"]) == bare)
        var mount = bare
        mount.actionID = "org.freedesktop.udisks2.filesystem-mount"
        #expect(mount.withPkexecCommand(["pkexec", "id"]) == mount)
    }

    @Test func anotherActionsQuestionIsItsMessagesFirstSentenceAndTheRestIsOnRequest() {
        let mount = PolkitRequest(
            actionID: "org.freedesktop.udisks2.filesystem-mount",
            message: "Authentication is required to mount Key (/dev/sdb1). Its owner is another user.",
            cookie: "c", identities: [.user(uid: 1000)])
        let field = PolkitWording(language: .en).field(
            request: mount, asker: "udisksctl", user: "admin", prompt: "Password: ", echo: false, news: [])
        #expect(field.label == "Authentication is required to mount Key (/dev/sdb1)")
        #expect(field.aboutOnRequest == [mount.message, "Asked by udisksctl."])
        // pkexec's action without the details that name the program: its message, whole.
        var bare = request
        bare.details = [:]
        let plain = PolkitWording(language: .en).field(
            request: bare, asker: nil, user: "admin", prompt: "Password: ", echo: false, news: [])
        #expect(plain.label == request.message)
        #expect(plain.aboutOnRequest.isEmpty)
        // A one-sentence message is the label whole, its full stop left to the colon, and not said twice.
        var oneSentence = mount
        oneSentence.message = "Authentication is required to mount Key."
        let short = PolkitWording(language: .en).field(
            request: oneSentence, asker: nil, user: "admin", prompt: "Password: ", echo: false, news: [])
        #expect(short.label == "Authentication is required to mount Key")
        #expect(short.aboutOnRequest.isEmpty)
    }

    @Test func pamsOwnQuestionIsADetailUnlessItOnlySaysPassword() {
        let wording = PolkitWording(language: .en)
        var other = request
        other.actionID = "org.example.action"
        other.message = "m"
        let code = wording.field(
            request: other, asker: nil, user: "admin", prompt: "Verification code: ", echo: true, news: [])
        #expect(code.details == ["Password of admin.", "Verification code"])
        #expect(!code.mask)
        other.message = "\u{1B}]0;title\u{07}Run"
        other.details = ["program": "/bin/\u{1B}[2Jx", "user": "root"]
        other.actionID = "org.freedesktop.policykit.exec"
        let escaped = wording.field(
            request: other, asker: "pk\u{1B}[2J", user: "admin", prompt: "password:", echo: false, news: [])
        #expect(escaped.aboutOnRequest.last == #"Asked by pk\x1B[2J."#)
        #expect(!escaped.label.contains("\u{1B}") && !escaped.aboutOnRequest.joined().contains("\u{1B}"))
    }

    @Test(arguments: Language.allCases)
    func eachUserOfSeveralIsAYesNoQuestion(language: Language) {
        var pkexec = request
        pkexec.details["user"] = "root"
        let question = PolkitWording(language: language).identityChoice(
            user: "alice", request: pkexec, asker: "pkexec")
        #expect(question.question == language.said("polkit.chooseIdentity", "alice"))
        #expect(
            question.details == [
                language.said("polkit.question.run", "id", "root", "alice"), request.message,
                language.said("polkit.asker", "pkexec"),
            ])
    }
}

/// `--doctor`'s line on polkit agents.
@Suite struct PolkitAgentReportTests {
    private func process(_ pid: Int32, _ name: String, uid: UInt32 = 1000) -> ProcessRecord {
        ProcessRecord(pid: pid, parent: 1, session: 1, terminal: 0, uid: uid, name: name)
    }

    @Test func otcPromptsOwnAgentIsNamedWithWhatItServes() {
        let arguments: [Int32: [String]] = [
            10: ["otc-prompt", "--polkit-agent", "--process", "42"], 11: ["otc-prompt", "--agent"],
            12: ["otc-prompt", "--polkit-agent"],
        ]
        let line = PolkitAgentReport.line(
            processes: [process(10, "otc-prompt"), process(11, "otc-prompt"), process(12, "otc-prompt")], uid: 1000,
            arguments: { arguments[$0] })
        #expect(
            line
                == "polkit agent: otc-prompt --polkit-agent (process 10, for process 42); "
                + "otc-prompt --polkit-agent (process 12, for the login session).")
    }

    @Test func anotherUsersAgentIsNotTheUsersAndNoneIsSaid() {
        let line = PolkitAgentReport.line(
            processes: [process(5, "pkttyagent", uid: 0), process(6, "bash")], uid: 1000, arguments: { _ in nil })
        #expect(line.hasPrefix("polkit agent: none of yours is running"))
        let theirs = PolkitAgentReport.line(
            processes: [process(7, "polkit-gnome-au")], uid: 1000, arguments: { _ in nil })
        #expect(theirs == "polkit agent: polkit-gnome (process 7).")
    }
}

/// A request takes the terminal only for a program in its foreground.
@Suite struct PolkitForegroundTests {
    private let request = PolkitRequest(
        actionID: "org.freedesktop.policykit.exec", message: "m",
        details: ["polkit.caller-pid": "40", "polkit.subject-pid": "41"], cookie: "c", identities: [])
    private let tty: UInt64 = 34816

    @Test func pkexecInTheForegroundIsAskedWhileItsShellWaitsInTheBackground() {
        let processes: [Int32: PolkitForeground.Process] = [
            40: .init(group: 40, terminal: tty), 41: .init(group: 41, terminal: tty),
        ]
        #expect(PolkitForeground.refusal(of: request, terminal: tty, foreground: 40, served: nil, leader: nil) { processes[$0] } == nil)
    }

    @Test func pkexecInTheBackgroundIsRefusedThoughItsShellIsInTheForeground() {
        let processes: [Int32: PolkitForeground.Process] = [
            40: .init(group: 40, terminal: tty), 41: .init(group: 41, terminal: tty),
        ]
        let refusal = PolkitForeground.refusal(of: request, terminal: tty, foreground: 41, served: nil, leader: nil) { processes[$0] }
        #expect(refusal == "the program that asks (40) is not in the terminal's foreground")
    }

    @Test func aDaemonsCallerIsPassedOverForItsSubjectOnTheTerminal() {
        // udisksd asks for udisksctl: udisksd has no terminal.
        let processes: [Int32: PolkitForeground.Process] = [
            40: .init(group: 1, terminal: 0), 41: .init(group: 41, terminal: tty),
        ]
        #expect(PolkitForeground.refusal(of: request, terminal: tty, foreground: 41, served: nil, leader: nil) { processes[$0] } == nil)
        #expect(PolkitForeground.refusal(of: request, terminal: tty, foreground: 7, served: nil, leader: nil) { processes[$0] } != nil)
    }

    @Test func aRequestFromAnotherTerminalOrAProcessGoneIsRefused() {
        let elsewhere: [Int32: PolkitForeground.Process] = [
            40: .init(group: 40, terminal: 34817), 41: .init(group: 40, terminal: 34817),
        ]
        #expect(PolkitForeground.refusal(of: request, terminal: tty, foreground: 40, served: nil, leader: nil) { elsewhere[$0] } != nil)
        #expect(PolkitForeground.refusal(of: request, terminal: tty, foreground: 40, served: nil, leader: nil) { _ in nil } != nil)
    }
}

/// Only polkitd's calls reach the agent's object.
@Suite struct PolkitBusTrustTests {
    @Test func polkitdsConnectionIsTrustedWithoutAskingItsUid() {
        #expect(
            PolkitBusTrust.accepts(sender: ":1.4", authority: ":1.4") {
                Issue.record("asked")
                return nil
            })
    }

    @Test func anotherConnectionIsTrustedOnlyWhenItIsRoots() {
        #expect(PolkitBusTrust.accepts(sender: ":1.9", authority: ":1.4") { 0 })
        #expect(!PolkitBusTrust.accepts(sender: ":1.9", authority: ":1.4") { 1000 })
        #expect(!PolkitBusTrust.accepts(sender: ":1.9", authority: ":1.4") { nil })
        #expect(!PolkitBusTrust.accepts(sender: ":1.9", authority: nil) { 1000 })
    }

    @Test func aCallWithNoSenderIsRefused() {
        #expect(!PolkitBusTrust.accepts(sender: nil, authority: ":1.4") { 0 })
        #expect(!PolkitBusTrust.accepts(sender: "", authority: "") { 0 })
    }
}
