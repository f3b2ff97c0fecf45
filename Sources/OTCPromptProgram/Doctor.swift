import Glibc
import OTCPromptBraille
import OTCPromptCore
import OTCPromptHost
import OTCPromptSettings
import OTCPromptSpeech
import OTCPromptSpeechDispatcher
import OTCPromptTerminal

/// `otc-prompt --doctor`: what a blind user runs when they hear nothing. It probes, prints the report
/// (`DoctorReport`) on stdout, and says its summary the way the prompt would speak, with the rest on Enter
/// (`DoctorFrontEnd`): keys typed meanwhile act at once, never waiting behind the whole report.
struct Doctor {
    /// The user's `--speech` (or the config file's): the route is chosen from the same probes the report gives.
    let choice: SpeechChoice
    /// The user's `--braille`: the display it gives is reported after the speech.
    var braille: BrailleChoice = .auto
    let voice: SpeechOptions
    let environment: [String: String]
    let configFile: ConfigFileSettings
    /// `--escape-delay` or the file's, when set.
    let escapeDelay: Duration?

    /// Prints the report; returns its lines when they are to be said as well (`DoctorFrontEnd`), nil when not: to a
    /// file, or where announcements are text lines or nothing (the printed report is then what is read).
    func run() -> [String]? {
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
        var report = DoctorReport(
            route: found.route, location: found.location, speechDispatcherAddress: address.readable,
            speechDispatcherModule: found.speechDispatcher.module,
            speechDispatcherRefused: found.speechDispatcher.refused,
            speechDispatcherInstalled: found.speechDispatcherInstalled, screenReader: found.screenReader,
            audioDevice: audio, configFile: configFile.source, configProblems: configFile.problems.map(\.description),
            speechLibraryProblems: SpeechLibraries.problems())
        report.escapeWait = EscapeWait.choose(chosen: escapeDelay, location: found.location)
        report.tmuxEscapeTime = found.location.multiplexerSocket.flatMap(Self.tmuxEscapeTime)
        let lines =
            report.lines + [DoctorReport.accessibleLine(environment["ACCESSIBLE"])]
            + BrailleReport.lines(braille, environment: environment, terminal: nil)
            + [TouchWatchReport.line(environment: environment)]
            + [
                PolkitAgentReport.line(
                    processes: ProcessTable.read(), uid: getuid(), arguments: { ProcessTable.arguments(pid: $0) })
            ]
        try? StandardOutput.write(lines.map(UntrustedText.visible).joined(separator: "\n"))
        engine.finish(timeout: .zero)
        // A report redirected into a file is read there, not heard: it speaks to a terminal, or when a
        // way of speaking was chosen (--speech or the config file).
        guard StandardOutput.isTerminal || choice != .auto else { return nil }
        switch report.effectiveRoute.kind {
        case .speechd, .espeak: return lines
        case .text, .none: return nil
        }
    }

    /// The `escape-time` of the tmux server at `socket`, as it answers `show-options`; nil when it does not.
    static func tmuxEscapeTime(socket: String) -> Duration? {
        let answer = HelperProgram.output(
            "tmux", ["-S", socket, "show-options", "-s", "-v", "escape-time"], timeout: .seconds(1))
        return answer?.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) }.map { .milliseconds($0) }
    }
}
