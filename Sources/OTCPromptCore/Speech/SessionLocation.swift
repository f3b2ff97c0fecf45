// SPDX-License-Identifier: GPL-3.0-or-later

/// One process as /proc tells it: enough to follow a terminal back to the login behind it.
public struct ProcessRecord: Equatable, Sendable {
    public var pid: Int32
    public var parent: Int32
    /// The session id (`/proc/PID/stat` field 6).
    public var session: Int32
    /// The controlling terminal's device number (`tty_nr`), 0 for none.
    public var terminal: UInt64
    /// The real uid (`/proc/PID/status`, Uid:).
    public var uid: UInt32
    /// The command name (`/proc/PID/comm`): "sshd", "tmux: server".
    public var name: String

    public init(pid: Int32, parent: Int32, session: Int32, terminal: UInt64, uid: UInt32, name: String) {
        self.pid = pid
        self.parent = parent
        self.session = session
        self.terminal = terminal
        self.uid = uid
        self.name = name
    }
}

/// A terminal device as the prompt sees it: its number (`st_rdev`), its name, and when it last took input.
public struct TerminalDevice: Equatable, Sendable {
    public var device: UInt64
    public var path: String
    /// Seconds since the epoch of the last input (the tty's access time); nil when unknown.
    public var lastInput: Int64?

    public init(device: UInt64, path: String, lastInput: Int64? = nil) {
        self.device = device
        self.path = path
        self.lastInput = lastInput
    }

    /// A Linux virtual console (`/dev/tty1`…`/dev/tty63`: major 4, minor 1 to 63).
    public var isVirtualConsole: Bool {
        let major = (device >> 8) & 0xfff
        let minor = (device & 0xff) | ((device >> 12) & 0xfff00)
        return major == 4 && (1...63).contains(minor)
    }
}

/// Where the person typing is, found from the terminal the prompt uses, never from the caller's
/// environment alone: gpg-agent, ssh-agent, a tmux server or `sudo -E` hand on variables that describe
/// somebody else's situation.
public struct SessionLocation: Equatable, Sendable {
    public enum Place: String, Equatable, Sendable {
        /// At this machine, on a virtual console: the console's own screen reader (Speakup, brltty) serves them.
        case console
        /// At this machine, in a terminal of its own display.
        case local
        /// Elsewhere (SSH, mosh): this machine's speakers are not theirs.
        case remote
        /// No terminal to follow: only the environment's hints are left.
        case unknown
    }

    public var place: Place
    /// The terminal the decision rests on (a tmux client's, for a pane), nil when there is none.
    public var terminal: String?
    /// The uid that leads the terminal's session, nil when not found.
    public var owner: UInt32?
    /// "tmux" or "screen" when the prompt runs in a pane: the environment is then the server's, stale.
    public var multiplexer: String?
    /// The tmux server's socket, when the prompt runs in one of its panes (`--doctor` asks it its `escape-time`).
    public var multiplexerSocket: String?
    /// One clause: the evidence.
    public var evidence: String

    public init(
        _ place: Place, terminal: String? = nil, owner: UInt32? = nil, multiplexer: String? = nil, evidence: String
    ) {
        self.place = place
        self.terminal = terminal
        self.owner = owner
        self.multiplexer = multiplexer
        self.evidence = evidence
    }

    /// Whether the person is at this machine: its speakers and its screen readers are theirs.
    public var isHere: Bool { place == .console || place == .local }

    /// Servers that put a person at another machine when they are their session's ancestor.
    public static let remoteServers: Set<String> = ["mosh-server", "dropbear", "in.telnetd", "telnetd", "in.rlogind"]

    /// sshd by any of its names: sshd, sshd-session and sshd-auth (OpenSSH 9.8 and later), or an sshd run
    /// under a name of its own that begins so. A process that calls itself so wrongly only makes the prompt
    /// quieter, never louder.
    static func isRemoteServer(_ name: String) -> Bool {
        name.hasPrefix("sshd") || remoteServers.contains(name)
    }

    /// The processes the rule may look at: one by its pid (the ancestry), or all of them (the holders of a
    /// terminal, a multiplexer's clients), each read only when asked; and, for tmux, a process's command
    /// line and one variable of its environment, which name the socket it talks to.
    public struct Processes {
        public var byPID: (Int32) -> ProcessRecord?
        public var all: () -> [ProcessRecord]
        public var arguments: (Int32) -> [String]?
        public var variable: (Int32, String) -> String?

        public init(
            byPID: @escaping (Int32) -> ProcessRecord?, all: @escaping () -> [ProcessRecord],
            arguments: @escaping (Int32) -> [String]? = { _ in nil },
            variable: @escaping (Int32, String) -> String? = { _, _ in nil }
        ) {
            self.byPID = byPID
            self.all = all
            self.arguments = arguments
            self.variable = variable
        }

        /// A fixed table (tests, and a table already read), with the command lines and environments known.
        public init(
            _ table: [ProcessRecord], arguments: [Int32: [String]] = [:], environments: [Int32: [String: String]] = [:]
        ) {
            let index = Dictionary(table.map { ($0.pid, $0) }, uniquingKeysWith: { first, _ in first })
            self.init(
                byPID: { index[$0] }, all: { table }, arguments: { arguments[$0] },
                variable: { environments[$0]?[$1] })
        }
    }

    /// Follows `terminal` to the session it controls and that session's ancestry:
    /// 1. no terminal, or no process holds it: unknown;
    /// 2. an ancestor is an SSH, mosh or telnet server: remote;
    /// 3. an ancestor is a tmux or screen server: the server's client that took input last decides, as if
    ///    the prompt ran on that client's terminal (a pane has no place of its own);
    /// 4. otherwise here: on the console when the terminal is a virtual console, else local.
    /// - Parameters:
    ///   - terminal: the terminal the prompt reads from; nil when it has none.
    ///   - sessionLeader: the pid that leads the terminal's session when known at once (`getsid` of the
    ///     prompt's own controlling terminal), so nothing else has to be read; nil to look it up.
    ///   - processes: the machine's processes.
    ///   - terminals: the device of a number (its name and last input), for a multiplexer's clients.
    public static func locate(
        terminal: TerminalDevice?, sessionLeader: Int32? = nil, processes: Processes,
        terminals: (UInt64) -> TerminalDevice?
    ) -> SessionLocation {
        locate(
            terminal: terminal, sessionLeader: sessionLeader, processes: processes, terminals: terminals, through: nil)
    }

    static func locate(
        terminal: TerminalDevice?, sessionLeader: Int32?, processes: Processes,
        terminals: (UInt64) -> TerminalDevice?, through multiplexer: String?
    ) -> SessionLocation {
        guard let terminal else { return SessionLocation(.unknown, evidence: "there is no terminal to follow") }
        let leader: ProcessRecord?
        if let found = sessionLeader.flatMap(processes.byPID) {
            leader = found
        } else {
            let holders = processes.all().filter { $0.terminal == terminal.device }
            leader =
                holders.first(where: { $0.pid == $0.session }) ?? holders.first.flatMap { processes.byPID($0.session) }
        }
        guard let leader else {
            return SessionLocation(
                .unknown, terminal: terminal.path, evidence: "no process has \(terminal.path) as its terminal")
        }
        let prefix = multiplexer.map { "\($0); " } ?? ""
        var current = leader
        for _ in 0..<64 {
            if isRemoteServer(current.name) {
                return SessionLocation(
                    .remote, terminal: terminal.path, owner: leader.uid,
                    evidence: "\(prefix)the session of \(terminal.path) was opened by \(current.name)")
            }
            if let kind = multiplexerKind(current), multiplexer == nil {
                return throughMultiplexer(
                    kind, server: current, terminal: terminal, processes: processes, terminals: terminals)
            }
            guard current.parent > 0, let parent = processes.byPID(current.parent) else { break }
            current = parent
        }
        let place: Place = terminal.isVirtualConsole ? .console : .local
        let what = place == .console ? "a virtual console of this machine" : "opened on this machine"
        return SessionLocation(
            place, terminal: terminal.path, owner: leader.uid,
            evidence: "\(prefix)\(terminal.path) is \(what), with no SSH or mosh server in its session's ancestry")
    }
}
