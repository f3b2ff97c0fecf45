import OTCPromptCore
import Testing

/// Where the person typing is, from invented process trees: the terminal's session, its ancestry, and a
/// multiplexer's clients.
@Suite struct SessionLocationTests {
    /// /dev/pts/N as the kernel numbers it (major 136), and /dev/ttyN (major 4).
    static func pts(_ n: UInt64) -> UInt64 { 136 << 8 | n }
    static func vt(_ n: UInt64) -> UInt64 { 4 << 8 | n }

    static func process(
        _ pid: Int32, _ name: String, parent: Int32, session: Int32? = nil, terminal: UInt64 = 0, uid: UInt32 = 1000
    ) -> ProcessRecord {
        ProcessRecord(pid: pid, parent: parent, session: session ?? pid, terminal: terminal, uid: uid, name: name)
    }

    static func device(_ number: UInt64, lastInput: Int64? = nil) -> TerminalDevice {
        let path = number >> 8 == 4 ? "/dev/tty\(number & 0xff)" : "/dev/pts/\(number & 0xff)"
        return TerminalDevice(device: number, path: path, lastInput: lastInput)
    }

    static let system = [process(1, "systemd", parent: 0, uid: 0)]

    /// A login over SSH on pts/3: sshd → sshd-session → bash.
    static let sshLogin = [
        process(700, "sshd", parent: 1, uid: 0), process(800, "sshd-session", parent: 700, uid: 0),
        process(801, "bash", parent: 800, terminal: pts(3)),
    ]

    /// A desktop terminal on pts/1: gnome-terminal → bash.
    static let desktop = [
        process(500, "gnome-terminal-", parent: 1), process(501, "bash", parent: 500, terminal: pts(1)),
    ]

    /// A login at the first virtual console: login → bash.
    static let console = [
        process(300, "login", parent: 1, uid: 0), process(301, "bash", parent: 300, terminal: vt(1)),
    ]

    /// A tmux server started from the desktop, its pane on pts/5.
    static let tmuxServer = [
        process(900, "tmux: server", parent: 1, session: 900),
        process(901, "bash", parent: 900, terminal: pts(5)),
    ]

    /// The command lines of the invented tmux processes: by default all on the default socket.
    static let defaultSocket: [Int32: [String]] = [900: ["tmux"], 820: ["tmux", "attach"], 520: ["tmux", "a"]]

    static func locate(
        _ terminal: UInt64?, _ tables: [ProcessRecord]..., lastInput: [UInt64: Int64] = [:], leader: Int32? = nil,
        arguments: [Int32: [String]] = defaultSocket, environments: [Int32: [String: String]] = [:]
    ) -> SessionLocation {
        SessionLocation.locate(
            terminal: terminal.map { device($0) }, sessionLeader: leader,
            processes: SessionLocation.Processes(
                system + tables.flatMap { $0 }, arguments: arguments, environments: environments),
            terminals: { number in device(number, lastInput: lastInput[number]) })
    }

    @Test func anSSHLoginIsRemote() {
        let found = Self.locate(Self.pts(3), Self.sshLogin, Self.desktop)
        #expect(found.place == .remote)
        #expect(found.owner == 1000)
        #expect(found.evidence == "the session of /dev/pts/3 was opened by sshd-session")
    }

    @Test func aTerminalOfTheDesktopIsLocal() {
        let found = Self.locate(Self.pts(1), Self.sshLogin, Self.desktop)
        #expect(found.place == .local)
        #expect(found.evidence.hasPrefix("/dev/pts/1 is opened on this machine"))
    }

    @Test func aVirtualConsoleIsTheConsole() {
        #expect(Self.locate(Self.vt(1), Self.console).place == .console)
        #expect(!TerminalDevice(device: Self.vt(0), path: "/dev/tty0").isVirtualConsole)
    }

    @Test func aKnownSessionLeaderIsFollowedWithoutLookingForHolders() {
        // The prompt in a subshell of the SSH login: its own process holds the terminal too.
        let prompt = Self.process(850, "otc-prompt", parent: 801, session: 801, terminal: Self.pts(3))
        #expect(Self.locate(Self.pts(3), Self.sshLogin, [prompt], leader: 801).place == .remote)
        #expect(Self.locate(Self.pts(3), Self.sshLogin, [prompt]).place == .remote)
    }

    @Test(arguments: ["sshd", "sshd-session", "sshd-otce2eabcd"])
    func sshdByAnyOfItsNamesIsRemote(name: String) {
        let login = [
            Self.process(700, name, parent: 1, uid: 0), Self.process(701, "sh", parent: 700, terminal: Self.pts(4)),
        ]
        #expect(Self.locate(Self.pts(4), login).place == .remote)
    }

    @Test func moshIsRemote() {
        let mosh = [
            Self.process(600, "mosh-server", parent: 1), Self.process(601, "zsh", parent: 600, terminal: Self.pts(7)),
        ]
        #expect(Self.locate(Self.pts(7), mosh).place == .remote)
    }

    @Test func noTerminalOrNoHolderIsUnknown() {
        #expect(Self.locate(nil, Self.sshLogin).place == .unknown)
        #expect(Self.locate(Self.pts(9), Self.sshLogin).place == .unknown)
    }

    @Test func aTmuxPaneAttachedOnlyOverSSHIsRemote() {
        // tmux started at the desktop, attached later from the SSH login: the pane's ancestry shows no sshd.
        let client = Self.process(820, "tmux: client", parent: 801, session: 801, terminal: Self.pts(3))
        let found = Self.locate(Self.pts(5), Self.tmuxServer, Self.sshLogin, [client])
        #expect(found.place == .remote)
        #expect(found.multiplexer == "tmux")
        #expect(found.terminal == "/dev/pts/3")
        #expect(found.evidence.hasPrefix("/dev/pts/5 is a tmux pane and its one client is on /dev/pts/3"))
        // The server's socket, for --doctor to ask its escape-time.
        #expect(found.multiplexerSocket?.hasSuffix("/default") == true, "\(found)")
    }

    @Test(arguments: [(typedLastRemotely: true, expected: SessionLocation.Place.remote), (false, .local)])
    func ofSeveralClientsTheOneTypedOnLastDecides(typedLastRemotely: Bool, expected: SessionLocation.Place) {
        let remote = Self.process(820, "tmux: client", parent: 801, session: 801, terminal: Self.pts(3))
        let local = Self.process(520, "tmux: client", parent: 501, session: 501, terminal: Self.pts(1))
        let times: [UInt64: Int64] =
            typedLastRemotely ? [Self.pts(3): 2000, Self.pts(1): 1000] : [Self.pts(3): 1000, Self.pts(1): 2000]
        let found = Self.locate(
            Self.pts(5), Self.tmuxServer, Self.sshLogin, Self.desktop, [remote, local], lastInput: times)
        #expect(found.place == expected)
        #expect(found.evidence.contains("of its 2 clients, the one typed on last,"))
    }

    @Test func anotherUsersTmuxClientsDoNotCount() {
        let stranger = Self.process(820, "tmux: client", parent: 801, session: 801, terminal: Self.pts(3), uid: 1001)
        let found = Self.locate(Self.pts(5), Self.tmuxServer, Self.sshLogin, [stranger])
        #expect(found.place == .unknown)
        #expect(found.multiplexer == "tmux")
    }

    @Test func aScreenPaneFollowsItsClient() {
        let screen = [
            Self.process(950, "screen", parent: 1), Self.process(951, "bash", parent: 950, terminal: Self.pts(6)),
            Self.process(830, "screen", parent: 801, session: 801, terminal: Self.pts(3)),
        ]
        #expect(Self.locate(Self.pts(6), screen, Self.sshLogin).place == .remote)
    }

    @Test func aLoopInTheAncestryEnds() {
        let loop = [
            Self.process(40, "a", parent: 41, terminal: Self.pts(2)), Self.process(41, "b", parent: 40, session: 40),
        ]
        #expect(Self.locate(Self.pts(2), loop).place == .local)
    }
}

/// The PulseAudio socket espeak-ng would play through, found as libpulse finds it, and refused when foreign.
@Suite struct PulseAudioSocketTests {
    @Test(
        arguments: [
            (["PULSE_SERVER": "unix:/run/user/1000/pulse/native"], "/run/user/1000/pulse/native"),
            (["PULSE_SERVER": "{abc}unix:/tmp/p tcp:host"], "/tmp/p"), (["PULSE_SERVER": "/tmp/q"], "/tmp/q"),
            (["PULSE_SERVER": "tcp:localhost:4713"], nil),
            (["PULSE_RUNTIME_PATH": "/r", "XDG_RUNTIME_DIR": "/x"], "/r/native"),
            (["XDG_RUNTIME_DIR": "/run/user/1000"], "/run/user/1000/pulse/native"), ([:], nil),
        ] as [([String: String], String?)])
    func theSocketIsWhereLibpulseLooks(environment: [String: String], path: String?) {
        #expect(PulseAudioSocket.path(environment: environment) == path)
    }

    @Test func anotherUsersPulseAudioTurnsEspeakIntoText() {
        let espeak = SpeechRoute(.espeak, reason: "no speech server")
        let refused = espeak.refusingForeignPulseAudio(at: "/run/user/1000/pulse/native", refused: "uid 1000's")
        #expect(refused.kind == .text)
        #expect(refused.reason.hasPrefix("the PulseAudio at /run/user/1000/pulse/native is refused (uid 1000's)"))
        #expect(espeak.refusingForeignPulseAudio(at: "/p", refused: nil) == espeak)
        let speechd = SpeechRoute(.speechd, reason: "answers")
        #expect(speechd.refusingForeignPulseAudio(at: "/p", refused: "x") == speechd)
    }
}
