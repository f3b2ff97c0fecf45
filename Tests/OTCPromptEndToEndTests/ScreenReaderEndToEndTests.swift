import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// The prompt beside the real Fenrir (Debian's fenrir, its speech-dispatcher driver, PTY emulation) on one private
/// speech-dispatcher: the opening waits for Fenrir's reading of the lines printed just before the prompt, never holds
/// Fenrir's own messages back, and is heard after them. speech-dispatcher's own log says who cancelled whom.
@Suite(
    .runsPrograms, .serialized,
    .enabled(
        if: PrivateSpeechDispatcher.isInstalled && PrivatePulseAudio.isInstalled
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/fenrir"),
        "needs fenrir, speech-dispatcher, speech-dispatcher-espeak-ng and pulseaudio"))
struct ScreenReaderEndToEndTests {
    static let printedLine = "This line was printed just before the prompt, and the screen reader reads it to its end."

    /// Fenrir's pty settings with speech through speech-dispatcher, no sound icons, keys and screen through the pty,
    /// its debug log and nothing else in `directory`.
    static func fenrirSettings(in directory: String) throws -> String {
        var text = try String(contentsOfFile: "/etc/fenrirscreenreader/settings/settings-pty.conf", encoding: .utf8)
        let wanted: [(section: String, key: String, value: String)] = [
            ("sound", "enabled", "False"), ("speech", "driver", "speechdDriver"), ("speech", "module", "espeak-ng"),
            ("screen", "driver", "ptyDriver"), ("keyboard", "driver", "ptyDriver"), ("remote", "enable", "False"),
            ("general", "debugFile", directory + "/fenrir.log"), ("general", "shell", "/bin/sh"),
            ("general", "autoSpellCheck", "False"),
        ]
        for setting in wanted {
            var lines = text.components(separatedBy: "\n")
            guard let section = lines.firstIndex(of: "[\(setting.section)]") else { continue }
            let end = lines[(section + 1)...].firstIndex { $0.hasPrefix("[") } ?? lines.count
            if let existing = lines[(section + 1)..<end].firstIndex(where: { $0.hasPrefix(setting.key + "=") }) {
                lines[existing] = "\(setting.key)=\(setting.value)"
            } else {
                lines.insert("\(setting.key)=\(setting.value)", at: section + 1)
            }
            text = lines.joined(separator: "\n")
        }
        let path = directory + "/fenrir.conf"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test(.timeLimit(.minutes(3))) func theOpeningFollowsFenrirsReadingAndNeverHoldsItBack() async throws {
        let pulse = try #require(PrivatePulseAudio.start(), "PulseAudio is installed but did not start")
        defer { pulse.stop() }
        let speechd = try #require(
            PrivateSpeechDispatcher.start(pulse: pulse, logLevel: 5), "speech-dispatcher did not start")
        defer { speechd.stop() }
        let directory = PromptRun.privateDirectory()
        let speechLog = directory + "/speech.jsonl"
        // A short command line (Fenrir reads the command typed, then what it prints): the line, then the prompt.
        let script = directory + "/ask"
        try writeExecutable(
            """
        #!/bin/sh
        echo '\(Self.printedLine)'
        exec '\(PromptRun.binary)' --speech speechd --speech-log '\(speechLog)'

        """, to: script, mode: 0o755)
        let environment = PromptRun.environment(
            speechd.clientEnvironment.merging(["HOME": directory, "PS1": "ready> "]) { $1 })
        // Debian's Fenrir, with only its renaming of its own process left out: it names itself "fenrir" (prctl), and a
        // `fenrir` of this user would make every `--speech auto` prompt of the other tests running meanwhile start a
        // speech-dispatcher for it. Run this way it stays "python3".
        let fenrir = try PseudoTerminalProcess(
            executable: "/usr/bin/python3",
            arguments: [
                "-c",
                """
                from fenrirscreenreader.core import fenrirManager
                fenrirManager.fenrirManager.setProcessName = lambda self, name='fenrir': False
                fenrirManager.fenrirManager().proceed()
                """,
                "-s", try Self.fenrirSettings(in: directory), "-e",
            ],
            environment: environment)
        defer {
            kill(-fenrir.processID, SIGTERM)
            _ = fenrir.waitForExit(deadline: .seconds(5))
        }
        // Fenrir is up once it has read its shell's prompt through the server (it draws the screen its own way).
        #expect(
            await fenrir.wait(deadline: .seconds(30)) { _ in
                SpeechDispatcherLog(path: speechd.logPath).texts.values.contains { $0.contains("ready") }
            }, "Fenrir never read its shell's prompt")
        fenrir.type(script + "\r")
        // Until the prompt's opening has been heard to its end (or the deadline).
        func ours() -> (log: SpeechDispatcherLog, client: Int?) {
            let log = SpeechDispatcherLog(path: speechd.logPath)
            return (log, log.client(named: "otc-prompt"))
        }
        #expect(
            await fenrir.wait(deadline: .seconds(90)) { _ in
                let (log, client) = ours()
                guard let client else { return false }
                return log.replies(to: client).contains { $0.code == 702 }
            }, "the opening was never heard to its end: \(ours().log.replies)")
        fenrir.type([3])
        let (log, client) = ours()
        let us = try #require(client)
        let reader = try #require(log.client(named: "fenrir"))
        // Fenrir read the printed line to its end: our opening did not cut it (703).
        let line = try #require(log.message(of: reader, containing: "screen reader reads"), "\(log.texts)")
        let lineEnd = try #require(log.time(of: 702, for: line), "Fenrir's reading was cut: \(log.replies(to: reader))")
        // Fenrir's reading of the prompt's own line was not held back behind our opening: it began as soon as the
        // line before it ended, and ended before ours began.
        let label = try #require(log.message(of: reader, containing: "Verification code"), "\(log.texts)")
        let labelBegin = try #require(log.time(of: 701, for: label))
        #expect(labelBegin - lineEnd < 0.5, "Fenrir's reading of the prompt waited \(labelBegin - lineEnd) s")
        let labelEnd = try #require(log.time(of: 702, for: label))
        // Ours was heard to its end, after both.
        let opening = try #require(
            log.replies(to: us).first {
                $0.code == 702 && log.texts[$0.message]?.contains("Verification code") == true
            })
        #expect(opening.time > labelEnd, "\(log.replies)")
        #expect(spokenLogLines(speechLog).first?.contains("Verification code. Type 6 digits.") == true)
    }
}

/// The speech log's texts, in order.
private func spokenLogLines(_ path: String) -> [String] {
    ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
}
