import OTCPromptCore
import Testing

/// `--speech auto`: one test per rule, and the probes asked only as far as needed.
@Suite struct SpeechRouteTests {
    final class Probes {
        var asked: [String] = []
        let server: SpeechServerProbe
        let reader: String?
        let installed: Bool
        init(answers: Bool = false, server: SpeechServerProbe? = nil, reader: String? = nil, installed: Bool = false) {
            self.server = server ?? (answers ? .answers : .silent)
            self.reader = reader
            self.installed = installed
        }

        func choose(
            _ chosen: SpeechRoute.Kind? = nil, _ environment: [String: String] = [:],
            at location: SessionLocation = SpeechRouteTests.here
        ) -> SpeechRoute {
            SpeechRoute.choose(
                chosen: chosen, location: location, environment: environment,
                speechDispatcher: {
                    self.asked.append("answers")
                    return self.server
                },
                screenReader: {
                    self.asked.append("reader")
                    return self.reader
                },
                speechDispatcherInstalled: {
                    self.asked.append("installed")
                    return self.installed
                })
        }
    }

    static let here = SessionLocation(.local, terminal: "/dev/pts/1", evidence: "/dev/pts/1 is opened on this machine")
    static let elsewhere = SessionLocation(
        .remote, terminal: "/dev/pts/3", evidence: "the session of /dev/pts/3 was opened by sshd-session")
    static let unknown = SessionLocation(.unknown, evidence: "there is no terminal to follow")
    static let paneOfALocalClient = SessionLocation(
        .local, terminal: "/dev/pts/1", multiplexer: "tmux", evidence: "/dev/pts/5 is a tmux pane…")

    @Test func theUsersChoiceWinsAndProbesNothing() {
        let probes = Probes(answers: true)
        #expect(probes.choose(.espeak, ["SSH_TTY": "/dev/pts/1"], at: Self.elsewhere).kind == .espeak)
        #expect(probes.asked.isEmpty)
    }

    @Test func aPersonElsewhereWithNothingForwardedGetsText() {
        let probes = Probes(answers: true, reader: "Orca", installed: true)
        let route = probes.choose(nil, [:], at: Self.elsewhere)
        #expect(route.kind == .text)
        #expect(route.reason.contains("opened by sshd-session"))
        #expect(probes.asked.isEmpty, "never this machine's speakers, whatever runs here")
    }

    @Test(arguments: [["SSH_CONNECTION": "192.0.2.1 5 192.0.2.2 22"], ["SSH_TTY": "/dev/pts/3"]])
    func sshVariablesCountWhenNoTerminalSaysOtherwise(environment: [String: String]) {
        for location in [Self.unknown, Self.here] {
            let probes = Probes(answers: true)
            let route = probes.choose(nil, environment, at: location)
            #expect(route.kind == .text)
            #expect(route.reason.contains("says an SSH session"))
            #expect(probes.asked.isEmpty)
        }
    }

    @Test func aPanesStaleSSHVariablesDoNotCountAgainstALocalClient() {
        // tmux started over SSH, attached now at the desk: the server's environment still says SSH.
        let route = Probes(answers: true).choose(nil, ["SSH_TTY": "/dev/pts/3"], at: Self.paneOfALocalClient)
        #expect(route.kind == .speechd)
    }

    @Test func aPaneNobodyIsAttachedToIsText() {
        let pane = SessionLocation(.unknown, multiplexer: "tmux", evidence: "/dev/pts/5 is a tmux pane with no client")
        #expect(Probes(answers: true).choose(nil, [:], at: pane).kind == .text)
    }

    /// Found on a real machine: an SSH session forwarding PulseAudio to a host whose desktop runs the same
    /// user's speech-dispatcher: the digits played on the host's speakers.
    @Test func forwardedPulseAudioIsEspeakThroughItNeverTheHostsSpeechDispatcher() {
        let probes = Probes(answers: true)
        let route = probes.choose(nil, ["PULSE_SERVER": "tcp:localhost:4713"], at: Self.elsewhere)
        #expect(route.kind == .espeak)
        #expect(route.reason.contains("PULSE_SERVER forwards audio"))
        #expect(probes.asked.isEmpty)
    }

    @Test func aForwardedSpeechDispatcherIsUsedWhenItAnswers() {
        let forwarded = ["SPEECHD_ADDRESS": "unix_socket:/tmp/s"]
        let route = Probes(answers: true).choose(nil, forwarded, at: Self.elsewhere)
        #expect(route.kind == .speechd && !route.autospawn)
        #expect(route.reason.hasPrefix("speech-dispatcher answers on its socket, the one SPEECHD_ADDRESS forwards"))
        #expect(Probes(answers: false).choose(nil, forwarded, at: Self.elsewhere).kind == .text)
        let both = forwarded.merging(["PULSE_SERVER": "tcp:localhost:4713"]) { $1 }
        #expect(Probes(answers: false).choose(nil, both, at: Self.elsewhere).kind == .espeak)
    }

    @Test func aSpeechDispatcherThatAnswersIsUsed() {
        let probes = Probes(answers: true, reader: "Orca")
        let route = probes.choose()
        #expect(route == SpeechRoute(.speechd, reason: "speech-dispatcher answers on its socket"))
        #expect(probes.asked == ["answers"])
    }

    @Test func aScreenReaderWithSpeechDispatcherInstalledStartsIt() {
        let probes = Probes(reader: "Fenrir", installed: true)
        let route = probes.choose()
        #expect(route.kind == .speechd && route.autospawn)
        #expect(route.reason.hasPrefix("Fenrir runs"))
    }

    @Test func anotherUsersSpeechDispatcherIsNeitherUsedNorReplaced() {
        let probes = Probes(server: .refused("the socket belongs to uid 1000"), reader: "Fenrir", installed: true)
        let route = probes.choose()
        #expect(route.kind == .espeak)
        #expect(route.reason.hasPrefix("the speech-dispatcher found is refused (the socket belongs to uid 1000)"))
        #expect(probes.asked == ["answers"])
    }

    @Test func otherwiseEspeakNG() {
        #expect(Probes(reader: "Fenrir", installed: false).choose().kind == .espeak)
        let probes = Probes(installed: true)
        #expect(probes.choose().kind == .espeak)
        #expect(probes.asked == ["answers", "reader"], "installed only matters with a screen reader")
    }
}

@Suite struct ScreenReadersAndDoctorTests {
    @Test func screenReadersAreFoundByTheirProcessNames() {
        #expect(ScreenReaders.running(among: ["bash", "fenrir"], speakupLoaded: false, onConsole: false) == "Fenrir")
        #expect(ScreenReaders.running(among: ["orca", "brltty"], speakupLoaded: true, onConsole: true) == "Orca")
        #expect(ScreenReaders.running(among: ["bash"], speakupLoaded: true, onConsole: true) == "Speakup")
        #expect(ScreenReaders.running(among: ["fenrirx", "orca-helper"], speakupLoaded: false, onConsole: true) == nil)
    }

    @Test func brlttyAndSpeakupCountOnlyAtTheConsoleTheyServe() {
        #expect(ScreenReaders.running(among: ["brltty"], speakupLoaded: true, onConsole: false) == nil)
        #expect(ScreenReaders.running(among: ["brltty"], speakupLoaded: false, onConsole: true) == "brltty")
    }

    static let pane = SessionLocation(
        .remote, terminal: "/dev/pts/3", owner: 1000, multiplexer: "tmux",
        evidence: "/dev/pts/5 is a tmux pane and its one client is on /dev/pts/3; "
            + "the session of /dev/pts/3 was opened by sshd-session")

    static func report(
        route: SpeechRoute, location: SessionLocation = pane, refused: String? = nil,
        audio: Result<Void, DoctorReport.AudioProblem> = .success(()), problems: [String] = []
    ) -> DoctorReport {
        DoctorReport(
            route: route, location: location,
            speechDispatcherAddress: "/run/user/1000/speech-dispatcher/speechd.sock", speechDispatcherModule: nil,
            speechDispatcherRefused: refused, speechDispatcherInstalled: true, screenReader: "Fenrir",
            audioDevice: audio, configFile: "/home/joe/.config/otc-prompt/config", configProblems: problems)
    }

    @Test func theDoctorSaysTheAnswerFirstThenTheEvidence() {
        let problem = "otc-prompt: /home/joe/.config/otc-prompt/config:2: rate must be a number from 80 to 450"
        let report = Self.report(
            route: SpeechRoute(.speechd, autospawn: true, reason: "Fenrir runs and speech-dispatcher is installed"),
            location: SessionLocation(.local, terminal: "/dev/pts/1", owner: 1000, evidence: "/dev/pts/1 is local"),
            audio: .failure(DoctorReport.AudioProblem("no audio device")), problems: [problem])
        #expect(
            report.lines == [
                "Speech: speechd, because Fenrir runs and speech-dispatcher is installed.",
                "Where you are: at this machine, a session of uid 1000, because /dev/pts/1 is local.",
                "speech-dispatcher does not answer at /run/user/1000/speech-dispatcher/speechd.sock yet; it is "
                    + "installed and is started for the prompt.",
                "Screen reader: Fenrir runs, as you.", "Audio device: none: no audio device.",
                "Config file: /home/joe/.config/otc-prompt/config, read, 1 problem, shown below.", problem,
            ])
        #expect(
            Self.report(route: SpeechRoute(.text, reason: "r"), problems: ["a", "b"]).lines.contains {
                $0.hasSuffix("read, 2 problems, shown below.")
            })
    }

    @Test func theDoctorSaysWhereYouAreAndWhy() {
        let report = Self.report(route: SpeechRoute(.text, reason: "you are not at this machine"))
        #expect(
            report.lines[1]
                == "Where you are: at another machine, a session of uid 1000, because /dev/pts/5 is a tmux pane and "
                + "its one client is on /dev/pts/3; the session of /dev/pts/3 was opened by sshd-session.")
    }

    @Test func espeakWithNoDeviceIsReportedAsTheTextItGives() {
        let espeak = SpeechRoute(.espeak, reason: "no speech server")
        let none = Self.report(route: espeak, audio: .failure(DoctorReport.AudioProblem("no audio device")))
        #expect(
            none.lines[0]
                == "Speech: text, because espeak-ng was chosen (no speech server), but it has no audio device.")
        let denied = Self.report(
            route: espeak, audio: .failure(DoctorReport.AudioProblem("Access denied", kind: .refusedAccess)))
        #expect(denied.lines[0].hasSuffix("but the audio server refused it access."))
        #expect(denied.lines.contains("Audio device: the audio server refused access: Access denied."))
        #expect(!denied.lines.contains { $0.hasPrefix("Audio device: none") })
    }

    @Test func aRefusedSpeechDispatcherIsSaidWithWhy() {
        let report = Self.report(
            route: SpeechRoute(.espeak, reason: "no speech server"), refused: "the socket belongs to uid 1000")
        #expect(
            report.lines.contains(
                "speech-dispatcher at /run/user/1000/speech-dispatcher/speechd.sock is refused: "
                    + "the socket belongs to uid 1000."))
    }
}
