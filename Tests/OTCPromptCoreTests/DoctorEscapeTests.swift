import OTCPromptCore
import Testing

/// `--doctor` says which wait a lone Esc gets here and why, and that tmux holds every Esc when its escape-time is
/// long enough to be heard.
@Suite struct DoctorEscapeTests {
    static func report(location: SessionLocation, escapeDelay: Duration? = nil, tmux: Duration? = nil) -> DoctorReport {
        var report = DoctorReport(
            route: SpeechRoute(.text, reason: "chosen"), location: location, speechDispatcherAddress: "/s",
            speechDispatcherModule: nil, speechDispatcherInstalled: false, screenReader: nil, audioDevice: .success(()),
            configFile: nil, configProblems: [])
        report.escapeWait = EscapeWait.choose(chosen: escapeDelay, location: location)
        report.tmuxEscapeTime = tmux
        return report
    }

    static let here = SessionLocation(.local, terminal: "/dev/pts/1", evidence: "/dev/pts/1 is opened on this machine")

    @Test func theEscWaitIsSaidRightAfterWhereYouAre() {
        let lines = Self.report(location: Self.here).lines
        let place = try! #require(lines.firstIndex { $0.hasPrefix("Where you are:") })
        #expect(
            lines[place + 1] == "Esc: a lone Esc ends the prompt after 25 ms, because you are at this machine, "
                + "whose terminal writes each key at once.")
        let remote = SessionLocation(.remote, terminal: "/dev/pts/2", evidence: "opened by sshd")
        #expect(
            Self.report(location: remote).lines.contains {
                $0.hasPrefix("Esc: a lone Esc ends the prompt after 300 ms")
            })
        #expect(
            Self.report(location: remote, escapeDelay: .milliseconds(500)).lines.contains {
                $0 == "Esc: a lone Esc ends the prompt after 500 ms without more bytes, as escape-delay sets."
            })
    }

    @Test(arguments: [
        (Duration.milliseconds(500), true), (.milliseconds(100), true), (.milliseconds(99), false),
        (.milliseconds(10), false), (.zero, false),
    ])
    func tmuxsEscapeTimeIsSaidFromATenthOfASecond(escapeTime: Duration, said: Bool) {
        let lines = Self.report(location: Self.here, tmux: escapeTime).lines
        let warning = lines.first { $0.hasPrefix("tmux delays every Esc") }
        #expect((warning != nil) == said, "\(lines)")
        if said { #expect(warning?.contains("\(Int(escapeTime / .milliseconds(1))) ms") == true) }
    }

    @Test func noTmuxNoWord() {
        #expect(!Self.report(location: Self.here).lines.contains { $0.contains("tmux") })
    }
}
