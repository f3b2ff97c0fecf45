import Glibc
import OTCPromptCore
import OTCPromptFrontEnds
import OTCPromptHost
import OTCPromptLoop
import OTCPromptSettings
import OTCPromptTerminal

/// A request posted for the user's password agent (`otc-prompt --agent`, in a terminal of theirs) because the
/// caller left none: an askpass run by a detached ssh-agent, a pinentry of a gpg-agent with no GPG_TTY. A password
/// goes to systemd's per-user directory, a question or a notice to otc-prompt's own (`AskPostDirectory`); the answer
/// comes back as the outcome a prompt would have had (`AgentPosting`).
struct AgentQuestion {
    let environment: [String: String]
    /// The caller's own limit (`--timeout`, a pinentry's SETTIMEOUT); `AgentPosting.defaultTimeLimit` when nil.
    let timeLimit: Duration?
    /// Descriptors whose hang-up means the caller has gone (gpg-agent's pipe, ssh-agent's end of stdout).
    let caller: [Int32]

    /// An askpass's caller: ssh-agent, ssh or sudo reads the answer from our stdout, so its going closes that pipe.
    static var askpassCaller: [Int32] { AskPost.callerPipes([STDOUT_FILENO]) }

    /// The signals that end the wait: the question is withdrawn, then the signal raised again.
    static let endingSignals = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM]

    /// The agent's answer as an outcome; nil when the question could not be posted (the reason is in the system
    /// log and on stderr): the caller is answered as before, with no terminal.
    func ask(_ request: Request) -> PromptOutcome? {
        let kind = AgentPosting.kind(of: request)
        let limit = AgentPosting.timeLimit(timeLimit)
        let deadline = MonotonicInstant.now + limit
        let post: AskPost
        let watcher: SignalWatcher?
        do {
            let directory = try (kind == .password ? AskPostDirectory.systemd : .otcPrompt).prepare(
                environment: environment)
            // What a poster of ours, killed before it could withdraw, left behind (never another's: `ProcessLiveness`).
            AskPost.removeAbandoned(in: directory)
            post = try AskPost(directory: directory)
            // Before the file appears: a SIGTERM from then on withdraws it.
            watcher = try? SignalWatcher(signals: Self.endingSignals)
            let file = AgentPosting.askFile(
                for: request, pid: getpid(), socket: post.socketPath,
                notAfter: UInt64(max(0, deadline.nanoseconds / 1000)), poster: ProcessLiveness.ownMark())
            try post.publish(file.rendered())
        } catch {
            Self.report("no terminal to prompt on, and the question could not be posted for a password agent: \(error)")
            return nil
        }
        while true {
            switch post.waitForAnswer(until: deadline, signals: watcher, caller: caller) {
            case .answer(let datagram, let count):
                let answer = AgentAnswer.decode(
                    UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: datagram.bytes[..<count])), kind: kind)
                datagram.wipe()
                // Not an answer to this kind of question (nor "-"): systemd's queriers wait on, as here.
                guard let answer else { continue }
                post.withdraw()
                if case .password(let secret) = answer {
                    _ = secret.withStorage { ProcessHardening.lockInMemory($0) }
                }
                return AgentPosting.outcome(answer)
            case .timedOut:
                post.withdraw()
                Self.report(
                    "no password agent answered within \(limit.components.seconds) s, so the question was cancelled"
                        + " (\(Self.firstLine(of: request))); run otc-prompt --agent in a terminal to answer"
                        + " questions from programs that have none")
                return AgentPosting.outcome(nil)
            case .callerGone:
                post.withdraw()
                return .callerGone
            case .signalled(let signal):
                post.withdraw()
                watcher?.reraise(signal)
                return .signalled(signal)
            }
        }
    }

    /// Carries out an askpass delivery with no terminal: the answer on stdout, the status returned.
    func deliver(_ delivery: Delivery) -> Int32 {
        let encoding = LocaleCodeset.encoding(environment: environment) ?? .utf8
        do {
            switch delivery {
            case .answer(let secret): try StandardOutput.write(secret, encoding: encoding)
            case .key(let secret): try StandardOutput.write(secret, encoding: encoding, endingLine: false)
            case .text(let text): try StandardOutput.write(text, encoding: encoding)
            case .status(let status): return status
            case .failure(let message, let status):
                Self.report(message)
                return status
            case .signal(let signal): return ExitStatus.signalled(signal)
            }
            return ExitStatus.submitted
        } catch {
            Self.report("\(error)")
            return ExitStatus.outputFailed
        }
    }

    /// Where a user with no terminal can find it: the system log (the journal), and stderr for a caller that keeps it.
    static func report(_ message: String) {
        StandardError.writeLine("otc-prompt: \(message)")
        SystemLog.warning(message)
    }

    /// What was asked, for the log: the caller's first line, never an answer.
    private static func firstLine(of request: Request) -> String {
        let message = AgentPosting.askFile(for: request, pid: 0, socket: "", notAfter: 0).message ?? ""
        return String(message.prefix { $0 != "\n" }.prefix(120))
    }
}
