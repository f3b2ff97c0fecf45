import OTCPromptCore
import OTCPromptFrontEnds
import OTCPromptHost
import OTCPromptLoop
import OTCPromptTerminal

/// One request being asked at the terminal: the user chosen, then the conversation with the helper, each of its
/// questions a field.
struct Asking {
    let program: PolkitAgentProgram
    let pending: PolkitPending
    /// The request as said: pkexec's with what it runs (`PolkitRequest.withPkexecCommand`).
    let request: PolkitRequest
    let bus: PolkitBus
    let terminal: Terminal
    let asker: String?

    /// The one user to ask for, or how the request ended without one: with several, a yes/no question for each in
    /// turn, the invoking user's first. Cancelled when there is none, or each was declined; a signal or a terminal
    /// gone during a question ends the agent with it, as during a field.
    func chooseUser(_ uids: [UInt32]) -> Choice {
        let users = uids.map { (uid: $0, name: PolkitAgentProgram.userName($0) ?? "\($0)") }
        guard users.count > 1 else { return users.first.map { .user($0) } ?? .ended(.init(reply: .cancelled)) }
        for user in users {
            let session = program.wording.identityChoice(
                user: user.name, request: request, asker: asker)
            switch try? program.question(session, pending: pending).runSession(on: terminal).get() {
            case .confirmed(true)?: return .user(user)
            case .confirmed(false)?: continue
            case .signalled(let signal)?:
                terminal.restore()
                terminal.signalWatcher?.reraise(signal)
                return .ended(.init(reply: .cancelled, ending: ExitStatus.signalled(signal)))
            case .terminalClosed?:
                return .ended(.init(reply: .cancelled, ending: ExitStatus.terminalClosed))
            default: return .ended(.init(reply: .cancelled))
            }
        }
        return .ended(.init(reply: .cancelled))
    }

    /// Whose password to ask for, or how the request ended before one was chosen.
    enum Choice {
        case user((uid: UInt32, name: String))
        case ended(PolkitAgentProgram.Ended)
    }

    /// PAM's `lines` said and shown while the helper waits, until it speaks again or the request is withdrawn (nil:
    /// the conversation goes on) or Esc cancels it (polkitd hears at once), or a signal or the terminal's end.
    func tell(_ lines: [String], whileWaitingFor helper: PolkitHelper) -> PolkitAgentProgram.Ended? {
        guard let watch = try? PolkitHelperWatch.start(output: helper.descriptor, withdrawal: pending.withdrawal.read)
        else { return nil }
        defer { watch.finish() }
        let notice = program.notice(program.wording.waiting(lines), pending: pending, bus: bus, watch: watch.spoke)
        switch try? notice.runSession(on: terminal).get() {
        case .callerGone?: return nil
        case .signalled(let signal)?:
            terminal.restore()
            terminal.signalWatcher?.reraise(signal)
            return .init(reply: .cancelled, ending: ExitStatus.signalled(signal))
        case .terminalClosed?: return .init(reply: .cancelled, ending: ExitStatus.terminalClosed)
        default: return .init(reply: .cancelled)
        }
    }

    /// The helper's conversation for `user`, until polkitd can be answered.
    func converse(as user: (uid: UInt32, name: String)) -> PolkitAgentProgram.Ended {
        var conversation = PolkitConversation(language: program.wording.language)
        var helper: PolkitHelper
        do {
            helper = try PolkitHelper.start(user: user.name, cookie: pending.request.cookie)
        } catch {
            terminal.writeLine("otc-prompt: \(error)")
            return .init(reply: .failed)
        }
        /// Raw while the helper checks an answer (a key typed meanwhile is never echoed), until the next field or the end.
        var heldRaw = false
        defer {
            helper.stop()
            // What was typed while the helper checked a password is dropped, never given to the shell: it may be the
            // password again, typed by someone who heard nothing yet.
            if heldRaw { terminal.restore(discardingInput: true) }
        }
        while true {
            let step: PolkitConversation.Step
            switch helper.next(withdrawal: pending.withdrawal.read) {
            case .line(let line): step = conversation.receive(line)
            case .ended: step = conversation.helperEnded()
            case .withdrawn: step = conversation.cancel()
            }
            switch step {
            case .wait:
                // PAM's messages said now when the helper goes quiet after them (it waits for a finger or a touch):
                // with a field to come at once, they are said with it.
                guard !helper.speaks(within: .milliseconds(100)) else { continue }
                let lines = conversation.takeNews()
                guard !lines.isEmpty else { continue }
                heldRaw = false
                if let ended = tell(lines, whileWaitingFor: helper) {
                    _ = conversation.cancel()
                    return ended
                }
                // Held raw until the next field: a key typed meanwhile is never echoed.
                try? terminal.enterRawMode(bracketedPaste: false)
                heldRaw = true
            case .restartHelper:
                helper.stop()
                do {
                    helper = try PolkitHelper.start(user: user.name, cookie: pending.request.cookie)
                } catch {
                    terminal.writeLine("otc-prompt: \(error)")
                    return .init(reply: .failed)
                }
            case .ask(let prompt, let echo, let news):
                let field = program.wording.field(
                    request: request, asker: asker, user: user.name, prompt: prompt, echo: echo,
                    news: news)
                heldRaw = false
                let outcome = try? program.field(field, pending: pending, bus: bus).runSession(on: terminal).get()
                switch outcome {
                case .submitted(let secret)?:
                    try? terminal.enterRawMode(bracketedPaste: false)
                    heldRaw = true
                    guard helper.answer(secret) else { return .init(reply: .failed) }
                    conversation.answered()
                case .signalled(let signal)?:
                    terminal.restore()
                    terminal.signalWatcher?.reraise(signal)
                    return .init(reply: .cancelled, ending: ExitStatus.signalled(signal))
                case .terminalClosed?:
                    return .init(reply: .cancelled, ending: ExitStatus.terminalClosed)
                default:
                    _ = conversation.cancel()
                    return .init(reply: .cancelled)
                }
            case .finish(let result, let news):
                for line in news { terminal.writeLine(line) }
                return .init(reply: result)
            }
        }
    }
}
