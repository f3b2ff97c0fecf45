import OTCPromptCore
import Testing

/// `--speech auto`: one test per rule, and the probes asked only as far as needed.
@Suite struct SpeechRouteTests {
    final class Probes {
        var asked: [String] = []
        let answers: Bool
        let reader: String?
        let installed: Bool
        init(answers: Bool = false, reader: String? = nil, installed: Bool = false) {
            self.answers = answers
            self.reader = reader
            self.installed = installed
        }

        func choose(_ chosen: SpeechRoute.Kind? = nil, _ environment: [String: String] = [:]) -> SpeechRoute {
            SpeechRoute.choose(
                chosen: chosen, environment: environment,
                speechDispatcherAnswers: {
                    self.asked.append("answers")
                    return self.answers
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

    @Test func theUsersChoiceWinsAndProbesNothing() {
        let probes = Probes(answers: true)
        #expect(probes.choose(.espeak, ["SSH_TTY": "/dev/pts/1"]).kind == .espeak)
        #expect(probes.asked.isEmpty)
    }

    @Test(arguments: [["SSH_CONNECTION": "192.0.2.1 5 192.0.2.2 22"], ["SSH_TTY": "/dev/pts/3"]])
    func sshWithoutForwardedAudioIsText(environment: [String: String]) {
        let probes = Probes(answers: true)
        let route = probes.choose(nil, environment)
        #expect(route.kind == .text)
        #expect(route.reason.contains("SSH"))
        #expect(probes.asked.isEmpty, "never the remote machine's speakers, whatever runs there")
    }

    @Test(arguments: [["PULSE_SERVER": "tcp:localhost:4713"], ["SPEECHD_ADDRESS": "unix_socket:/tmp/s"]])
    func sshWithForwardedAudioGoesOn(forwarded: [String: String]) {
        let probes = Probes(answers: true)
        #expect(probes.choose(nil, forwarded.merging(["SSH_TTY": "/dev/pts/3"]) { $1 }).kind == .speechd)
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

    @Test func otherwiseEspeakNG() {
        #expect(Probes(reader: "Fenrir", installed: false).choose().kind == .espeak)
        let probes = Probes(installed: true)
        #expect(probes.choose().kind == .espeak)
        #expect(probes.asked == ["answers", "reader"], "installed only matters with a screen reader")
    }
}

@Suite struct ScreenReadersAndDoctorTests {
    @Test func screenReadersAreFoundByTheirProcessNames() {
        #expect(ScreenReaders.running(among: ["bash", "fenrir"], speakupLoaded: false) == "Fenrir")
        #expect(ScreenReaders.running(among: ["orca", "brltty"], speakupLoaded: true) == "Orca")
        #expect(ScreenReaders.running(among: ["bash"], speakupLoaded: true) == "Speakup")
        #expect(ScreenReaders.running(among: ["fenrirx", "orca-helper"], speakupLoaded: false) == nil)
    }

    @Test func theDoctorSaysTheAnswerFirstAndEveryFact() {
        let report = DoctorReport(
            route: SpeechRoute(.speechd, autospawn: true, reason: "Fenrir runs and speech-dispatcher is installed"),
            speechDispatcherAddress: "/run/user/1000/speech-dispatcher/speechd.sock", speechDispatcherModule: nil,
            speechDispatcherInstalled: true, screenReader: "Fenrir",
            audioDevice: .failure(DoctorReport.AudioProblem("no audio device")),
            configFile: "/home/joe/.config/otc-prompt/config",
            configProblems: ["otc-prompt: /home/joe/.config/otc-prompt/config:2: rate must be a number from 80 to 450"])
        #expect(
            report.lines == [
                "Speech: speechd, because Fenrir runs and speech-dispatcher is installed.",
                "speech-dispatcher does not answer at /run/user/1000/speech-dispatcher/speechd.sock; it is installed.",
                "Screen reader: Fenrir runs.", "Audio device: none: no audio device.",
                "Config file: /home/joe/.config/otc-prompt/config, read, 1 problems, shown below.",
                "otc-prompt: /home/joe/.config/otc-prompt/config:2: rate must be a number from 80 to 450",
            ])
    }
}
