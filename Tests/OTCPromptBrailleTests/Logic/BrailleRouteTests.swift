import Testing

@testable import OTCPromptBraille
@testable import OTCPromptCore

/// Whose braille display the prompt may use, and why: one test per rule of `BrailleRoute.choose`.
@Suite struct BrailleRouteTests {
    private let user: UInt32 = 1000
    private let console = SessionLocation(
        .console, terminal: "/dev/tty3", owner: 1000, evidence: "/dev/tty3 is a console")
    private let ssh = SessionLocation(.remote, terminal: "/dev/pts/4", owner: 1000, evidence: "sshd leads /dev/pts/4")

    private func route(
        _ choice: BrailleChoice = .auto, at location: SessionLocation? = nil, host: String? = nil,
        owner: BrailleServerFinding.Owner?, problem: String? = nil
    ) -> (BrailleRoute, asked: Bool) {
        var asked = false
        let route = BrailleRoute.choose(
            choice, location: location ?? console, environment: host.map { ["BRLAPI_HOST": $0] } ?? [:], user: user,
            systemUIDs: [0, 114]
        ) { address in
            asked = true
            return BrailleServerFinding(address: address, named: host != nil, owner: owner, problem: problem)
        }
        return (route, asked)
    }

    @Test func noneAsksNothing() {
        let (chosen, asked) = route(.none, owner: .uid(1000))
        #expect(chosen.address == nil && !asked)
    }

    @Test func theUsersOwnServerIsUsedAndTheSystemsOnlyWhenTheyAreHere() {
        #expect(route(owner: .uid(1000)).0.address == .local(name: "0"))
        #expect(route(owner: .uid(0)).0.address == .local(name: "0"))
        #expect(route(owner: .uid(114)).0.address == .local(name: "0"), "brltty's own account")
        let unknown = SessionLocation(.unknown, evidence: "there is no terminal to follow")
        let (system, _) = route(at: unknown, owner: .uid(0))
        #expect(system.address == nil && system.reason.contains("you may not be"), "\(system.reason)")
    }

    @Test func anotherUsersServerIsRefusedAndSaysWhose() {
        let (refused, _) = route(owner: .uid(1001))
        #expect(refused.address == nil && refused.reason.contains("runs as uid 1001, not as you (uid 1000)"))
        let (odd, _) = route(
            owner: .uid(1000), problem: "the socket belongs to uid 1001 but its server runs as uid 1000")
        #expect(odd.address == nil && odd.reason.contains("belongs to uid 1001"))
    }

    @Test func elsewhereOnlyAForwardedDisplayOfTheirOwnIsUsedAndThisMachinesNeverAsked() {
        let (local, asked) = route(at: ssh, owner: .uid(0))
        #expect(local.address == nil && !asked && local.reason.contains("you are not at this machine"))
        #expect(route(at: ssh, host: "127.0.0.1:5", owner: .uid(1000)).0.address == .tcp(host: "127.0.0.1", port: 4106))
        #expect(route(at: ssh, host: "127.0.0.1:5", owner: .uid(0)).0.address == nil)
    }

    @Test func anotherMachinesServerIsUsedOnlyWhenChosen() {
        let (automatic, _) = route(host: "braille.example:1", owner: .unknowable)
        #expect(automatic.address == nil && automatic.reason.contains("--braille brlapi"))
        #expect(route(.brlapi, host: "braille.example:1", owner: .unknowable).0.address != nil)
    }

    @Test func nothingListeningAndASocketOutsideBrlttysDirectoryAreNoDisplay() {
        #expect(route(owner: nil).0.reason == "no BrlAPI server answers at /var/lib/BrlAPI/0")
        let (outside, asked) = route(host: ":../../tmp/x", owner: .uid(1000))
        #expect(outside.address == nil && !asked)
    }
}

/// BRLAPI_HOST read as libbrlapi reads it, the tty a client takes, and the key file it authorises with.
@Suite struct BrailleAddressTests {
    @Test(
        arguments: [
            (nil, BrailleAddress.local(name: "0")), ("", .local(name: "0")), (":1", .local(name: "1")),
            ("127.0.0.1:7", .tcp(host: "127.0.0.1", port: 4108)), ("host", .tcp(host: "host", port: 4101)),
            ("host:x", .tcp(host: "host", port: 4101)), ("::1:2", .tcp(host: "::1", port: 4103)),
        ] as [(String?, BrailleAddress)])
    func brlapiHostNamesTheSameAddressAsForLibbrlapi(host: String?, address: BrailleAddress) {
        #expect(BrailleAddress(host: host) == address)
        #expect(BrailleAddress(host: BrailleAddress(host: host)?.setting) == address)
    }

    @Test func loopbackIsTheMachinesOwn() {
        #expect(BrailleAddress.tcp(host: "127.0.0.1", port: 4101).isLoopback)
        #expect(BrailleAddress.tcp(host: "localhost", port: 4101).isLoopback)
        #expect(BrailleAddress.tcp(host: "[::1]", port: 4101).isLoopback)
        #expect(!BrailleAddress.tcp(host: "192.0.2.1", port: 4101).isLoopback)
    }

    @Test func theTtyIsTheConsoleElseTheWindowElseTheGraphicalSessionsConsole() {
        let tty3 = TerminalDevice(device: 4 << 8 | 3, path: "/dev/tty3")
        let pts = TerminalDevice(device: 136 << 8 | 4, path: "/dev/pts/4")
        #expect(BrailleTty.path(terminal: tty3, environment: ["WINDOWID": "99"]) == [3])
        #expect(BrailleTty.path(terminal: pts, environment: ["WINDOWID": "8388621", "WINDOWPATH": "2"]) == [8_388_621])
        #expect(BrailleTty.path(terminal: pts, environment: ["WINDOWPATH": "2"]) == [])
        #expect(BrailleTty.path(terminal: pts, environment: ["XDG_VTNR": "5"]) == [5])
        #expect(BrailleTty.path(terminal: pts, environment: ["XDG_VTNR": "5", "WAYLAND_DISPLAY": "wayland-0"]) == [])
        #expect(BrailleTty.path(terminal: pts, environment: [:]) == nil)
    }

    @Test func theKeyFileIsLibbrlapisDefaultOrWhatBrlapiAuthNames() {
        #expect(BrailleAddress.keyFile(auth: nil) == "/etc/brlapi.key")
        #expect(BrailleAddress.keyFile(auth: "none") == nil)
        #expect(BrailleAddress.keyFile(auth: "keyfile:/home/a/.brlapi-key+polkit") == "/home/a/.brlapi-key")
        #expect(BrailleAddress.keyFile(auth: "/etc/other.key") == "/etc/other.key")
    }
}

/// The owners of this machine's TCP listeners, from /proc/net/tcp and tcp6 as the kernel writes them.
@Suite struct ListeningSocketsTests {
    private let tcp = """
          sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
           0: 0100007F:100C 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 51381 1
           1: 0100007F:100C 0100007F:CB00 01 00000000:00000000 00:00000000 00000000     0        0 0 1
           2: 00000000:100D 00000000:0000 0A 00000000:00000000 00:00000000 00000000   114        0 51382 1
           3: 0200A8C0:100E 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 51383 1
        """
    private let tcp6 = """
          sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
           0: 00000000000000000000000001000000:100F 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1001        0 1 1
        """

    @Test func theListenerOfAPortIsFoundByItsUid() {
        #expect(ListeningSockets.owners(ofPort: 0x100C, in: [tcp, tcp6]) == [1000])
        #expect(ListeningSockets.owners(ofPort: 0x100D, in: [tcp, tcp6]) == [114], "any address reaches loopback")
        #expect(ListeningSockets.owners(ofPort: 0x100E, in: [tcp, tcp6]) == [], "another address does not")
        #expect(ListeningSockets.owners(ofPort: 0x100F, in: [tcp, tcp6]) == [1001], "::1")
    }
}
