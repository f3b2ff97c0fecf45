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
    func theActionsMessageIsTheQuestionThenWhoAsksThenWhosePassword(language: Language) {
        let field = PolkitWording(language: language).field(
            message: request.message, asker: "pkexec", user: "admin", prompt: "Password: ", echo: false,
            news: [language.said("polkit.wrongPassword", 2)])
        #expect(field.label == request.message)
        #expect(field.details == [language.said("polkit.asker", "pkexec"), language.said("polkit.identity", "admin")])
        #expect(field.news == [language.said("polkit.wrongPassword", 2)])
        #expect(field.mask)
        #expect(field.kind == .freeText)
    }

    @Test func pamsOwnQuestionIsADetailUnlessItOnlySaysPassword() {
        let wording = PolkitWording(language: .en)
        let code = wording.field(
            message: "m", asker: nil, user: "admin", prompt: "Verification code: ", echo: true, news: [])
        #expect(code.details == ["Password of admin.", "Verification code"])
        #expect(!code.mask)
        let escaped = wording.field(
            message: "\u{1B}]0;title\u{07}Run", asker: "pk\u{1B}[2J", user: "admin", prompt: "password:", echo: false,
            news: [])
        #expect(escaped.details == [#"Asked by pk\x1B[2J."#, "Password of admin."])
        #expect(!escaped.label.contains("\u{1B}"))
    }

    @Test(arguments: Language.allCases)
    func eachUserOfSeveralIsAYesNoQuestion(language: Language) {
        let question = PolkitWording(language: language).identityChoice(
            user: "alice", message: request.message, asker: "pkexec")
        #expect(question.question == language.said("polkit.chooseIdentity", "alice"))
        #expect(question.details == [request.message, language.said("polkit.asker", "pkexec")])
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
