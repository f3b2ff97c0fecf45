import OTCPromptBraille
import OTCPromptCore
import OTCPromptSettings
import OTCPromptSpeech
import OTCPromptSpeechDispatcher
import OTCPromptTerminal

/// `otc-prompt --doctor`: what a blind user runs when they hear nothing. It probes, prints the report
/// (`DoctorReport`) on stdout, and speaks it the way the prompt would speak.
struct Doctor {
    /// The user's `--speech` (or the config file's): the route is chosen from the same probes the report gives.
    let choice: SpeechChoice
    /// The user's `--braille`: the display it gives is reported after the speech.
    var braille: BrailleChoice = .auto
    let voice: SpeechOptions
    let environment: [String: String]
    let configFile: ConfigFileSettings

    /// The report can be long: it is heard to its end, up to this long.
    static let speechLimit: Duration = .seconds(60)

    func run() {
        let found = SpeechRouteProbes.findings(for: choice, environment: environment, terminal: .controlling)
        let address = SpeechDispatcherAddress.resolve(environment: environment, user: .current)
        let engine = EspeakSpeechBackend.start(options: voice, output: .device)
        let audio: Result<Void, DoctorReport.AudioProblem>
        do throws(SpeechError) {
            try engine.waitUntilReady(timeout: VoiceStartup.readyTimeout)
            audio = .success(())
        } catch .noAudioDevice(let detail) where detail.lowercased().contains(text: "access denied") {
            audio = .failure(DoctorReport.AudioProblem(detail, kind: .refusedAccess))
        } catch {
            audio = .failure(DoctorReport.AudioProblem("\(error)"))
        }
        let report = DoctorReport(
            route: found.route, location: found.location, speechDispatcherAddress: address.readable,
            speechDispatcherModule: found.speechDispatcher.module,
            speechDispatcherRefused: found.speechDispatcher.refused,
            speechDispatcherInstalled: found.speechDispatcherInstalled, screenReader: found.screenReader,
            audioDevice: audio, configFile: configFile.source, configProblems: configFile.problems.map(\.description),
            speechLibraryProblems: SpeechLibraries.problems())
        let lines = report.lines + BrailleReport.lines(braille, environment: environment, terminal: nil)
        try? StandardOutput.write(lines.map(UntrustedText.visible).joined(separator: "\n"))
        // A report redirected into a file is read there, not heard: it speaks to a terminal, or when a
        // way of speaking was chosen (--speech or the config file).
        guard StandardOutput.isTerminal || choice != .auto else { return engine.finish(timeout: .zero) }
        let spoken = Announcement(.help, lines.joined(separator: " "), isFinal: true)
        let route = report.effectiveRoute
        switch route.kind {
        case .speechd:
            let options = SpeechDispatcherOptions(voice, autospawn: route.autospawn)
            if let backend = try? SpeechDispatcherBackend(
                options: options, environment: environment, user: UserAccount.current)
            {
                backend.speak(spoken)
                backend.finish(timeout: Self.speechLimit)
            }
            engine.finish(timeout: .zero)
        case .espeak:
            engine.speak(spoken)
            engine.finish(timeout: Self.speechLimit)
        case .text, .none:
            engine.finish(timeout: .zero)
        }
    }
}
