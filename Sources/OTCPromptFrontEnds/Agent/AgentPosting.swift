import OTCPromptCore
import OTCPromptLoop

/// A request asked through the user's password agent (`otc-prompt --agent`) because its caller left no terminal
/// (an ssh-agent from `eval "$(ssh-agent)"`, a gpg-agent with no GPG_TTY): the `Request` as an ask file, the
/// agent's answer as the `PromptOutcome` the front end maps back as it would a prompt's.
///
/// Pure: the program posts the file (`AskPost`) and waits for the datagram.
public enum AgentPosting {
    /// How long a question waits for an agent when its caller gives no limit. Neither ssh-agent nor gpg-agent
    /// (without `pinentry-timeout`) gives one, and their callers wait as long as the question does; this is
    /// systemd-ask-password's own default: time to reach the agent's terminal, hear the question and type a long
    /// passphrase by ear, while a question nobody will answer still fails the signature within two minutes.
    public static let defaultTimeLimit: Duration = .seconds(90)

    /// The kind of ask file `request` becomes: a field is a password, whatever it holds; only otc-prompt's agent
    /// can ask a question or a notice, so those go to its own directory alone.
    public static func kind(of request: Request) -> AskFile.Kind {
        switch request.ask {
        case .field: .password
        case .question: .question
        case .notice: .notice
        }
    }

    /// The ask file for `request`, answered on `socket`, with `notAfter` (CLOCK_MONOTONIC µs) as its end and the
    /// poster's mark (`poster`: what lets it, and only it, be judged gone later). Nothing secret is in it: the
    /// caller's texts, the kind and the labels.
    public static func askFile(
        for request: Request, pid: Int32, socket: String, notAfter: UInt64, poster: AskFile.Poster? = nil
    ) -> AskFile {
        var file = AskFile(pid: pid, socket: socket, notAfter: notAfter, kind: kind(of: request), poster: poster)
        switch request.ask {
        case .field(let configuration):
            file.echo = !configuration.mask
            file.message = (request.details + [configuration.label]).joined(separator: "\n")
        case .question(let question):
            file.message = (question.details + [question.question]).joined(separator: "\n")
            file.okLabel = question.labels.yes
            file.notOKLabel = question.labels.no
            file.cancelLabel = question.labels.cancel
        case .notice(let notice):
            file.message = (notice.details + [notice.message]).joined(separator: "\n")
        }
        return file
    }

    /// What the agent's answer means for the caller. No answer within the limit is a cancel, as Esc at the agent
    /// is: the caller hears that nobody agreed, never that someone did.
    public static func outcome(_ answer: AgentAnswer?) -> PromptOutcome {
        switch answer {
        case .password(let secret)?: .submitted(secret)
        case .yes?, .acknowledged?: .confirmed(true)
        case .no?: .confirmed(false)
        case .cancel?, nil: .cancelled
        }
    }

    /// The time the question waits: the caller's own limit (a pinentry's SETTIMEOUT, `--timeout`), else
    /// `defaultTimeLimit`.
    public static func timeLimit(_ callerLimit: Duration?) -> Duration {
        guard let callerLimit, callerLimit > .zero else { return defaultTimeLimit }
        return callerLimit
    }
}
