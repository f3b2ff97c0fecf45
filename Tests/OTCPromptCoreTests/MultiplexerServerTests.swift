import OTCPromptCore
import Testing

/// Which tmux server a client belongs to: the one whose socket it talks to, worked out from command lines.
@Suite struct MultiplexerSocketTests {
    @Test(
        arguments: [
            (["tmux"], [:], "/tmp/tmux-1000/default"),
            (["tmux", "-L", "tester2", "attach"], [:], "/tmp/tmux-1000/tester2"),
            (["tmux", "-Ltester2", "attach"], [:], "/tmp/tmux-1000/tester2"),
            (["tmux", "-2uL", "work", "new"], [:], "/tmp/tmux-1000/work"),
            (["tmux", "-S", "/run/t.sock", "attach"], [:], "/run/t.sock"),
            (["tmux", "-f", "/etc/x.conf", "-S/run/t.sock"], [:], "/run/t.sock"),
            (["tmux", "-L", "w"], ["TMUX_TMPDIR": "/run/user/1000"], "/run/user/1000/tmux-1000/w"),
            (["tmux", "attach"], ["TMUX": "/tmp/tmux-1000/inner,900,0"], "/tmp/tmux-1000/inner"),
            (["tmux", "-L", "x", "attach"], ["TMUX": "/tmp/tmux-1000/inner,900,0"], "/tmp/tmux-1000/x"),
            (["tmux", "new", "-s", "L"], [:], "/tmp/tmux-1000/default"),
            (["tmux", "-L"], [:], nil), (["tmux", "-L", "a/b"], [:], nil), ([], [:], nil),
        ] as [([String], [String: String], String?)])
    func theSocketIsFoundAsTmuxFindsIt(arguments: [String], environment: [String: String], socket: String?) {
        #expect(MultiplexerSocket.tmux(arguments: arguments, uid: 1000) { environment[$0] } == socket)
    }

    @Test func anUnreadableCommandLineNamesNoSocket() {
        #expect(MultiplexerSocket.tmux(arguments: nil, uid: 1000) { _ in nil } == nil)
    }
}

/// Found by a tester: clients of another tmux server of the same user decided where a pane's person was,
/// so a pane whose only client came over SSH spoke on this machine's speakers.
@Suite struct MultiplexerServerTests {
    typealias T = SessionLocationTests

    /// Three servers of uid 1000: tester (detached, pane pts/7), tester2 (pane pts/5, its client pts/6 over
    /// SSH) and tester3 (pane pts/8, its client on the desktop's pts/4).
    static let servers = [
        T.process(900, "tmux: server", parent: 1), T.process(901, "bash", parent: 900, terminal: T.pts(7)),
        T.process(910, "tmux: server", parent: 1), T.process(911, "bash", parent: 910, terminal: T.pts(5)),
        T.process(920, "tmux: server", parent: 1), T.process(921, "bash", parent: 920, terminal: T.pts(8)),
        T.process(700, "sshd", parent: 1, uid: 0), T.process(801, "bash", parent: 700, terminal: T.pts(6)),
        T.process(820, "tmux: client", parent: 801, session: 801, terminal: T.pts(6)),
        T.process(500, "gnome-terminal-", parent: 1), T.process(501, "bash", parent: 500, terminal: T.pts(4)),
        T.process(520, "tmux: client", parent: 501, session: 501, terminal: T.pts(4)),
    ]
    static let commandLines: [Int32: [String]] = [
        900: ["tmux", "-L", "tester", "new", "-d"], 910: ["tmux", "-L", "tester2", "new", "-d"],
        920: ["tmux", "-L", "tester3", "new"], 820: ["tmux", "-L", "tester2", "attach"],
        520: ["tmux", "-L", "tester3", "attach"],
    ]
    /// The desktop's client (pts/4) typed last.
    static let typedLocallyLast: [UInt64: Int64] = [T.pts(6): 1000, T.pts(4): 2000]

    @Test func aPaneCountsOnlyTheClientsOfItsOwnServer() {
        let found = T.locate(T.pts(5), Self.servers, lastInput: Self.typedLocallyLast, arguments: Self.commandLines)
        #expect(found.place == .remote)
        #expect(found.terminal == "/dev/pts/6")
        #expect(found.evidence.hasPrefix("/dev/pts/5 is a tmux pane and its one client is on /dev/pts/6"))
        let other = T.locate(T.pts(8), Self.servers, lastInput: Self.typedLocallyLast, arguments: Self.commandLines)
        #expect(other.place == .local)
        #expect(other.evidence.hasPrefix("/dev/pts/8 is a tmux pane and its one client is on /dev/pts/4"))
    }

    @Test func aPaneOfADetachedServerHasNoClient() {
        let found = T.locate(T.pts(7), Self.servers, lastInput: Self.typedLocallyLast, arguments: Self.commandLines)
        #expect(found.place == .unknown)
        #expect(found.multiplexer == "tmux")
        #expect(found.evidence == "/dev/pts/7 is a tmux pane with no client attached")
    }

    @Test func aClientNamingTheSameSocketByItsPathCounts() {
        var lines = Self.commandLines
        lines[520] = ["tmux", "-S", "/tmp/tmux-1000/tester2", "attach"]
        let found = T.locate(T.pts(5), Self.servers, lastInput: Self.typedLocallyLast, arguments: lines)
        #expect(found.place == .local)
        #expect(found.evidence.contains("of its 2 clients, the one typed on last, is on /dev/pts/4"))
    }

    @Test func anotherUsersServerOfTheSameNameDoesNotLendItsClients() {
        var table = Self.servers
        table[table.firstIndex { $0.pid == 520 }!].uid = 1001
        var lines = Self.commandLines
        lines[520] = ["tmux", "-L", "tester2", "attach"]
        let found = T.locate(T.pts(5), table, lastInput: Self.typedLocallyLast, arguments: lines)
        #expect(found.place == .remote)
    }

    @Test func aServerWhoseSocketCannotBeFoundLendsNoClient() {
        var lines = Self.commandLines
        lines[910] = nil
        let found = T.locate(T.pts(5), Self.servers, lastInput: Self.typedLocallyLast, arguments: lines)
        #expect(found.place == .unknown)
        #expect(found.evidence == "/dev/pts/5 is a tmux pane whose server's socket could not be found")
    }

    @Test func screenClientsCountOnlyWhenTheUserRunsOneScreenServer() {
        let screen = [
            T.process(950, "screen", parent: 1), T.process(951, "bash", parent: 950, terminal: T.pts(6)),
            T.process(830, "screen", parent: 801, session: 801, terminal: T.pts(3)),
        ]
        #expect(T.locate(T.pts(6), screen, T.sshLogin).place == .remote)
        let second = T.process(960, "screen", parent: 1)
        let found = T.locate(T.pts(6), screen, [second], T.sshLogin)
        #expect(found.place == .unknown)
        #expect(found.evidence.contains("one of 2 screen servers"))
    }
}
