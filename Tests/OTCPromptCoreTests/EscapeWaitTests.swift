import OTCPromptCore
import Testing

/// Which wait a lone Esc gets, from where the person is: short where keys arrive whole, the link's wait elsewhere,
/// and the user's own whenever they set one.
@Suite struct EscapeWaitTests {
    static let here = SessionLocation(.local, terminal: "/dev/pts/3", evidence: "opened on this machine")
    static let console = SessionLocation(.console, terminal: "/dev/tty2", evidence: "a virtual console")
    static let ssh = SessionLocation(.remote, terminal: "/dev/pts/4", evidence: "opened by sshd")
    static let serial = SessionLocation(.local, terminal: "/dev/ttyS0", evidence: "opened on this machine")
    static let bootConsole = SessionLocation(.local, terminal: "/dev/console", evidence: "opened on this machine")
    static let unknown = SessionLocation(.unknown, evidence: "there is no terminal to follow")

    @Test(arguments: [here, console])
    func aTerminalOfThisMachineGetsTheShortWait(location: SessionLocation) {
        let wait = EscapeWait.choose(chosen: nil, location: location)
        #expect(wait.delay == .milliseconds(25))
        #expect(wait.reason == .keysArriveWhole)
        #expect(wait.sentence.contains("because you are at this machine"), "\(wait.sentence)")
    }

    @Test(arguments: [ssh, serial, bootConsole, unknown])
    func aLinkOrAPlaceNotKnownGetsTheLinksWait(location: SessionLocation) {
        let wait = EscapeWait.choose(chosen: nil, location: location)
        #expect(wait.delay == .milliseconds(300))
        #expect(wait.reason == .linkMaySplitKeys)
        #expect(wait.sentence.contains("300 ms"), "\(wait.sentence)")
    }

    @Test func theSentenceSaysWhyOverALink() {
        #expect(EscapeWait.choose(chosen: nil, location: Self.ssh).sentence.contains("you are at another machine"))
        #expect(EscapeWait.choose(chosen: nil, location: Self.serial).sentence.contains("/dev/ttyS0 may be a serial"))
        #expect(EscapeWait.choose(chosen: nil, location: Self.unknown).sentence.contains("is not known"))
    }

    @Test(arguments: [here, ssh, unknown])
    func aWaitTheUserSetAlwaysWins(location: SessionLocation) {
        let wait = EscapeWait.choose(chosen: .milliseconds(800), location: location)
        #expect(wait.delay == .milliseconds(800))
        #expect(wait.reason == .chosen)
        #expect(wait.sentence.contains("800 ms"), "\(wait.sentence)")
    }
}
