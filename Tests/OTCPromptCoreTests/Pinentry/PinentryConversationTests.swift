import Testing

@testable import OTCPromptCore

/// The conversation gpg-agent has with its pinentry, replies as pinentry 1.2 gives them.
@Suite struct PinentryConversationTests {
    static let identity = PinentryConversation.Identity(
        version: "0.1.0", pid: 4242, flavor: "otc", deviceStatus: { $0 == "/dev/pts/7" ? "20620/1000/5" : "?" },
        userIDs: "1000/1000")

    private func replies(_ lines: [String], conversation: inout PinentryConversation) -> [String] {
        lines.flatMap { line -> [String] in
            switch conversation.receive(Array(line.utf8)) {
            case .reply(let replies)?, .close(let replies)?: return replies
            case .dialog(let request)?: return ["dialog \(request.kind)"]
            case nil: return []
            }
        }
    }

    private func replies(_ lines: [String]) -> [String] {
        var conversation = PinentryConversation(identity: Self.identity)
        return replies(lines, conversation: &conversation)
    }

    @Test func everySettingIsAcknowledged() {
        let settings = [
            "SETDESC Please enter%0Athe passphrase", "SETPROMPT Passphrase:", "SETTITLE t", "SETERROR e", "SETOK o",
            "SETCANCEL c", "SETNOTOK n", "SETKEYINFO n/ABC", "SETREPEAT", "SETREPEATERROR x", "SETQUALITYBAR",
            "SETQUALITYBAR_TT q", "SETGENPIN g", "SETTIMEOUT 5", "SETTIMEOUT", "NOP", "RESET",
        ]
        #expect(replies(settings) == Array(repeating: "OK", count: settings.count))
    }

    @Test func getInfoAnswersAsDataLines() {
        #expect(
            replies(["GETINFO version", "GETINFO pid", "GETINFO flavor", "GETINFO ttyinfo", "GETINFO nothing"]) == [
                "D 0.1.0", "OK", "D 4242", "OK", "D otc", "OK", "D - - - - 1000/1000 -", "OK",
                "ERR 83886360 IPC parameter error <Pinentry>",
            ])
        #expect(
            replies(["OPTION ttyname=/dev/pts/7", "OPTION ttytype=xterm", "GETINFO ttyinfo"]) == [
                "OK", "OK", "D /dev/pts/7 xterm - 20620/1000/5 1000/1000 -", "OK",
            ])
    }

    @Test func optionsAreParsedAsLibassuanDoes() {
        var conversation = PinentryConversation(identity: Self.identity)
        let answers = replies(
            [
                "OPTION  ttyname = /dev/pts/3 ", "OPTION --ttytype=vt100", "OPTION lc-ctype=C.UTF-8", "OPTION grab",
                "OPTION allow-external-password-cache", "OPTION default-ok=_OK", "OPTION foo=bar", "OPTION",
                "OPTION =x", "OPTION display=", "OPTION grab=1",
            ], conversation: &conversation)
        #expect(
            answers == [
                "OK", "OK", "OK", "OK", "OK", "OK", "ERR 83886254 Unknown option <Pinentry>",
                "ERR 536871188 IPC syntax error <User defined source 1> - argument required",
                "ERR 536871188 IPC syntax error <User defined source 1> - no option name given",
                "ERR 536871188 IPC syntax error <User defined source 1> - option argument expected",
                "ERR 83886254 Unknown option <Pinentry>",
            ])
        #expect(conversation.state.ttyName == "/dev/pts/3")
        #expect(conversation.state.ttyType == "vt100")
        #expect(conversation.state.lcCtype == "C.UTF-8")
    }

    @Test func resetForgetsTheTextsButKeepsTheOptions() {
        var conversation = PinentryConversation(identity: Self.identity)
        _ = replies(
            ["OPTION ttyname=/dev/pts/3", "SETDESC d", "SETPROMPT p", "SETREPEAT", "RESET"], conversation: &conversation
        )
        #expect(conversation.state.ttyName == "/dev/pts/3")
        #expect(conversation.state.description == nil && conversation.state.prompt == nil)
        #expect(conversation.state.repeatPrompt == nil)
    }

    @Test func unknownAndUnsupportedCommands() {
        #expect(
            replies(["FOO", "CANCEL", "CLEARPASSPHRASE n/x", "HELP GETPIN", "HELP BAR", "  NOP"]) == [
                "ERR 536871187 Unknown IPC command <User defined source 1>",
                "ERR 536870981 Not implemented <User defined source 1>", "ERR 83886337 General IPC error <Pinentry>",
                "ERR 536870939 Not found <User defined source 1>",
                "ERR 536871087 Unknown command <User defined source 1>",
                "ERR 536871188 IPC syntax error <User defined source 1> - leading white-space",
            ])
    }

    @Test func helpListsTheCommandsAndByeCloses() {
        let help = replies(["HELP"])
        #expect(help.first == "# NOP" && help.last == "OK" && help.contains("# GETPIN") && help.count == 29)
        #expect(replies(["BYE"]) == ["OK closing connection"])
    }

    private func dialog(_ lines: [String], then result: PinentryConversation.DialogResult)
        -> (PinentryRequest?, PinentryConversation.DialogReply, PinentryState)
    {
        var conversation = PinentryConversation(identity: Self.identity)
        var request: PinentryRequest?
        for line in lines {
            if case .dialog(let asked)? = conversation.receive(Array(line.utf8)) { request = asked }
        }
        let reply = conversation.finish(result)
        return (request, reply, conversation.state)
    }

    @Test func anEnteredPassphraseIsSentAsDataThenOK() {
        let (request, reply, state) = dialog(
            ["SETPROMPT Passphrase:", "SETERROR Bad passphrase (try 2 of 3)", "GETPIN"], then: .entered(repeated: false)
        )
        #expect(request?.kind == .passphrase)
        #expect(request?.state.error == "Bad passphrase (try 2 of 3)")
        #expect(reply == .init(status: [], sendsSecret: true, last: "OK"))
        #expect(state.error == nil)
    }

    @Test func aRepeatedPassphraseSaysSoFirst() {
        let (_, reply, state) = dialog(["SETREPEAT Repeat:", "GETPIN"], then: .entered(repeated: true))
        #expect(reply == .init(status: ["S PIN_REPEATED"], sendsSecret: true, last: "OK"))
        #expect(state.repeatPrompt == nil)
    }

    @Test func cancellingAnswersOperationCancelled() {
        let (_, reply, _) = dialog(["GETPIN"], then: .cancelled)
        #expect(reply.last == "ERR 83886179 Operation cancelled <Pinentry>" && !reply.sendsSecret)
    }

    @Test func noTerminalAnswersAsPinentryCursesDoes() {
        let (_, reply, _) = dialog(["GETPIN"], then: .terminalUnusable(errno: 25, location: "isatty"))
        #expect(reply.status == ["S ERROR otc.isatty 83918950 "])
        #expect(reply.last == "ERR 83918950 Inappropriate ioctl for device <Pinentry>")
    }

    @Test func aSignalAnswersFullyCanceledAndEndsTheConversation() {
        let (_, reply, _) = dialog(["GETPIN"], then: .interrupted)
        #expect(reply.status == ["S ERROR otc.? 83886278 "])
        #expect(reply.last == "ERR 83886278 Fully canceled <Pinentry>" && reply.closes)
    }

    @Test func aTimeoutAnswersTimeout() {
        let (_, reply, _) = dialog(["SETTIMEOUT 30", "GETPIN"], then: .timedOut)
        #expect(reply.last == "ERR 83886142 Timeout <Pinentry>")
    }

    @Test(arguments: [("30", 30), ("86400", 86_400), ("86401", 0), ("999999999999", 0), ("-3", 0), ("x", 0)])
    func aTimeoutFurtherOffThanADayOrNotPositiveIsNoLimit(argument: String, seconds: Int) {
        #expect(PinentryConversation.timeout(argument) == seconds)
    }

    @Test func confirmationAnswers() {
        #expect(dialog(["CONFIRM"], then: .confirmed).1.last == "OK")
        #expect(dialog(["CONFIRM"], then: .notConfirmed).1.last == "ERR 83886194 Not confirmed <Pinentry>")
        #expect(dialog(["CONFIRM"], then: .cancelled).1.last == "ERR 83886179 Operation cancelled <Pinentry>")
        #expect(dialog(["CONFIRM --one-button"], then: .notConfirmed).0?.kind == .message)
        #expect(dialog(["CONFIRM --one-button"], then: .notConfirmed).1.last == "OK")
        #expect(dialog(["MESSAGE"], then: .cancelled).1.last == "OK")
    }

    /// A card's PIN may hold letters: whatever the prompt names, the field takes any character.
    @Test(arguments: [
        "PIN:", "Admin PIN", "||Please enter the PIN", "Passphrase:", "PIN or passphrase:", "Frase-senha:",
    ])
    func everyGetPINIsAFreeTextField(prompt: String) {
        #expect(dialog(["SETPROMPT \(prompt)", "GETPIN"], then: .cancelled).0?.kind == .passphrase)
    }

    @Test func withoutAPromptTheFieldIsAPassphraseFieldLabelledPIN() {
        let request = dialog(["GETPIN"], then: .cancelled).0
        #expect(request?.kind == .passphrase && request?.fieldLabel == "PIN")
    }

    @Test func settimeoutReadsANumberAsAtoiDoes() {
        #expect(PinentryConversation.atoi(" 30s") == 30)
        #expect(PinentryConversation.atoi("-3") == -3)
        #expect(PinentryConversation.atoi("abc") == 0)
    }
}
