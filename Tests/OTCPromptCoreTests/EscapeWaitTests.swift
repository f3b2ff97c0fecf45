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

/// Where kitty's keyboard protocol may be asked for, and its answers as the decoder hears them.
@Suite struct KeyboardProtocolTests {
    static let xterm = ["TERM": "xterm-kitty", "LANG": "C.UTF-8"]

    @Test func aTerminalOfItsOwnMayBeAskedHereOrOverALink() {
        for location in [EscapeWaitTests.here, EscapeWaitTests.ssh, EscapeWaitTests.unknown] {
            #expect(
                KeyboardProtocol.mayAsk(
                    location: location, capabilities: TerminalCapabilities(environment: Self.xterm),
                    environment: Self.xterm))
        }
    }

    @Test(arguments: [
        ["TERM": "linux"], ["TERM": "dumb"], [:], ["TERM": "tmux-256color"], ["TERM": "screen.xterm-256color"],
        ["TERM": "xterm-256color", "TMUX": "/tmp/tmux-0/default,1,0"], ["TERM": "xterm-256color", "STY": "1.pts"],
        ["TERM": "xterm-256color", "ACCESSIBLE": "1"],
    ])
    func theConsoleMultiplexersAndPlainTerminalsAreNeverAsked(environment: [String: String]) {
        #expect(
            !KeyboardProtocol.mayAsk(
                location: EscapeWaitTests.here, capabilities: TerminalCapabilities(environment: environment),
                environment: environment))
    }

    @Test func evenWithANiceTermAConsoleOrAPaneIsNeverAsked() {
        var pane = EscapeWaitTests.here
        pane.multiplexer = "tmux"
        for location in [EscapeWaitTests.console, pane] {
            #expect(
                !KeyboardProtocol.mayAsk(
                    location: location, capabilities: TerminalCapabilities(environment: Self.xterm),
                    environment: Self.xterm))
        }
    }

    @Test func theDecoderHearsBothAnswersAsReportsNotKeys() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(Array("\u{1B}[?1u".utf8)) == [.terminalReport])
        #expect(decoder.heardKeyboardProtocol && !decoder.heardDeviceAttributes)
        #expect(decoder.feed(Array("\u{1B}[?62;22c".utf8)) == [.terminalReport])
        #expect(decoder.heardDeviceAttributes)
        var other = KeyDecoder()
        _ = other.feed(Array("\u{1B}[?62;22c\u{1B}[u".utf8))
        #expect(!other.heardKeyboardProtocol, "CSI u without ? is no answer")
    }

    @Test(arguments: [
        ("\u{1B}[27u", Key.escape), ("\u{1B}[104;5u", .backspace), ("\u{1B}[109;5u", .submit),
        ("\u{1B}[106;5u", .submit), ("\u{1B}[91;5u", .escape), ("\u{1B}[49;3u", .ignored),
    ])
    func disambiguatedKeysAreTheKeysTheyAre(sequence: String, key: Key) {
        var decoder = KeyDecoder()
        #expect(decoder.feed(Array(sequence.utf8)) == [key])
    }
}
