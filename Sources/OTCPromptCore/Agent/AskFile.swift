/// One `ask.*` file of systemd's password-agent protocol (docs/PASSWORD_AGENTS.md): a querier's question, the
/// socket its answer goes to, and when it stops waiting.
///
/// systemd's queriers (systemd-ask-password, systemd-cryptsetup) write it in `/run/systemd/ask-password/` or,
/// from systemd 257, `$XDG_RUNTIME_DIR/systemd/ask-password/`; otc-prompt's own callers write it in
/// `$XDG_RUNTIME_DIR/otc-prompt/ask/`, where the `X-OTC-` keys add what systemd's protocol cannot say:
///
///     [Ask]
///     PID=4242                 the querier; a request whose process is gone is not asked
///     Socket=/run/…/sck.1a2b   an AF_UNIX datagram socket in the same directory, for the answer
///     Echo=0                   0: a masked secret; 1: visible text
///     NotAfter=123456789       CLOCK_MONOTONIC, µs; 0 or absent: no time limit
///     Message=Passphrase for backup
///     Id=cryptsetup:/dev/sda2  what is asked for ("disk sda2")
///     X-OTC-Kind=question      password (the default), question (yes/no) or notice (Enter)
///     X-OTC-OK=Delete          a question's labels, as pinentry's SETOK, SETNOTOK, SETCANCEL
///     X-OTC-NotOK=Keep
///     X-OTC-Cancel=Stop
///     X-OTC-Poster=4026531836:4242:98765   otc-prompt's poster: its PID namespace, PID and start time
///
/// Unknown keys and other sections are ignored, as systemd's agents do. `Message=` may carry C escapes (`\n`,
/// `\\`, `\xNN`): systemd from v254 writes them, and `rendered()` does, so a caller's line breaks survive.
/// systemd 252 writes a message's line breaks raw: the lines after `Message=` that are no `key=value` continue it.
public struct AskFile: Equatable, Sendable {
    /// What the request asks: systemd's protocol knows only the password.
    public enum Kind: String, Equatable, Sendable, CaseIterable {
        /// A secret or, with `Echo=1`, visible text; answered `+TEXT`.
        case password
        /// A yes/no question; answered `+yes` or `+no` (`AgentAnswer`).
        case question
        /// A notice taken with Enter; answered `+`.
        case notice
    }

    /// The querier's process; nil when the file names none (then only the file's removal withdraws it).
    public var pid: Int32?
    /// The absolute path of the querier's datagram socket.
    public var socket: String
    public var acceptCached: Bool
    public var echo: Bool
    /// When the querier stops waiting, in CLOCK_MONOTONIC µs; nil for never.
    public var notAfter: UInt64?
    public var silent: Bool
    public var message: String?
    public var icon: String?
    public var id: String?
    public var kind: Kind
    /// A question's labels for yes, no and cancel; nil takes the language's own words.
    public var okLabel: String?
    public var notOKLabel: String?
    public var cancelLabel: String?
    /// The keys whose values were out of range, one line each, and what was taken instead: said when it is asked.
    public var problems: [String] = []
    /// Who posted it, when otc-prompt did (`X-OTC-Poster=`): only this names a process a reader can judge.
    public var poster: Poster?
    /// Part of the file was left out: message lines past `messageLineLimit` or `messageCharacterLimit`, or lines
    /// that continue nothing. The agent says so: the user hears that what they hear is not all there was.
    public var leftSomethingOut = false

    /// The most lines a message keeps, and the most characters: a gpg key's description is a few lines long.
    public static let messageLineLimit = 24
    public static let messageCharacterLimit = 4096

    /// The largest ask file read: systemd's are a few hundred bytes; a bigger one is refused unread.
    public static let maximumSize = 64 * 1024

    public init(
        pid: Int32?, socket: String, acceptCached: Bool = false, echo: Bool = false, notAfter: UInt64? = nil,
        silent: Bool = false, message: String? = nil, icon: String? = nil, id: String? = nil,
        kind: Kind = .password, okLabel: String? = nil, notOKLabel: String? = nil, cancelLabel: String? = nil,
        poster: Poster? = nil
    ) {
        self.pid = pid
        self.socket = socket
        self.acceptCached = acceptCached
        self.echo = echo
        self.notAfter = notAfter
        self.silent = silent
        self.message = message
        self.icon = icon
        self.id = id
        self.kind = kind
        self.okLabel = okLabel
        self.notOKLabel = notOKLabel
        self.cancelLabel = cancelLabel
        self.poster = poster
    }

    /// Whether the querier has stopped waiting at `now` (CLOCK_MONOTONIC µs).
    public func hasExpired(atMicroseconds now: UInt64) -> Bool {
        guard let notAfter else { return false }
        return now >= notAfter
    }

    /// The time the querier still waits at `now`; nil for no limit, zero once passed. A limit further off than
    /// `Countdown.farthest` is none: "153722867280 minutes left" helps no one.
    public func timeLeft(atMicroseconds now: UInt64) -> Duration? {
        guard let notAfter else { return nil }
        let left = Duration.microseconds(notAfter > now ? Int64(clamping: notAfter - now) : 0)
        return left > Countdown.farthest ? nil : left
    }
}

extension AskFile {
    /// What proves which process posted a request: its PID namespace (the inode of `/proc/self/ns/pid`), its PID
    /// there and its start time (clock ticks since boot, as `/proc/PID/stat` gives it). A PID alone means nothing
    /// in another namespace, and may have been taken again by another process.
    public struct Poster: Equatable, Sendable {
        public var namespace: UInt64
        public var pid: Int32
        public var start: UInt64

        public init(namespace: UInt64, pid: Int32, start: UInt64) {
            self.namespace = namespace
            self.pid = pid
            self.start = start
        }

        /// "NAMESPACE:PID:START"; nil when it is not three numbers.
        init?(_ text: String) {
            let fields = text.split(separator: ":", omittingEmptySubsequences: false)
            guard fields.count == 3, let namespace = UInt64(fields[0]), let pid = Int32(fields[1]), pid > 0,
                let start = UInt64(fields[2])
            else { return nil }
            self.init(namespace: namespace, pid: pid, start: start)
        }

        var text: String { "\(namespace):\(pid):\(start)" }
    }
}

/// Why an ask file is not asked. Each is skipped, never a crash: a querier's file is outside input.
public enum AskFileError: Error, Equatable, Sendable {
    case tooLarge
    /// No `[Ask]` section.
    case noAskSection
    case missingSocket
    /// `Socket=` is not an absolute path without `..` components.
    case invalidSocket
    /// A kind no agent knows (`X-OTC-Kind=`).
    case invalidValue(key: String)
}
