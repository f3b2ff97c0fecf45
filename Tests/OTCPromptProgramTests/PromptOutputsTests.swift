import Glibc
import OTCPromptCore
import OTCPromptFrontEnds
import OTCPromptSettings
import OTCPromptSpeech
import OTCPromptTerminal
import OTCPromptTestSupport
import Testing

@testable import OTCPromptProgram

/// Every output is one type, listed once, and one chooser picks a prompt's outputs from where the person is and the
/// way speech goes: text lines are an output of their own, and the voice is chosen only where there is one.
@Suite struct PromptOutputsTests {
    @Test func everyOutputIsListedOnceWithTheTextLinesAmongThem() {
        let names = PromptOutputs.all.map { String(describing: $0) }
        #expect(Set(names).count == names.count)
        #expect(names.contains("TextLinesOutput"))
        #expect(
            PromptOutputs.announcing.map { String(describing: $0) } == [
                "SpeechLogWriter", "VoiceOutput", "TextLinesOutput",
            ])
    }

    @Test(arguments: [
        (SpeechChoice.text, false, ["TextLinesOutput", "ScreenOutput"]),
        (SpeechChoice.none, false, ["ScreenOutput"]),
        (SpeechChoice.text, true, ["SpeechLogWriter", "TextLinesOutput", "ScreenOutput"]),
    ])
    func speechKnownAtOnceChoosesItsOwnOutputs(choice: SpeechChoice, logs: Bool, expected: [String]) throws {
        let bench = try Bench(choice: choice, logs: logs)
        defer { bench.close() }
        let outputs = PromptOutputs.choose(at: bench.place)
        #expect(outputs.all.map { String(describing: type(of: $0)) } == expected)
    }

    @Test func textLinesAreWrittenOnceEachAsTheScreen() throws {
        let bench = try Bench(choice: .text, logs: false)
        defer { bench.close() }
        var outputs = PromptOutputs.choose(at: bench.place)
        outputs.say(Announcement(.notice, "first line"))
        outputs.draw(FieldSnapshot(label: "Code", characters: [], length: 6, mask: false, isError: false), whole: true)
        outputs.say(Announcement(.notice, "second line"))
        outputs.end()
        #expect(bench.written() == "first line\nsecond line\n")
    }

    /// A terminal on a pty, its location, and the speech set up for `choice` (with a speech log when `logs`), as the
    /// program does; the braille display is left out, as `--braille none` does.
    private final class Bench {
        let pty: PseudoTerminal
        let terminal: Terminal
        let logPath = "/tmp/otc-outputs-log-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).jsonl"
        let place: OutputPlace

        init(choice: SpeechChoice, logs: Bool) throws {
            pty = try PseudoTerminal()
            terminal = Terminal(input: pty.slave, output: pty.slave)
            let location = LoginSession.locate(descriptor: pty.slave)
            let speech = try SpeechSetup(
                choice: choice, voice: SpeechOptions(), voiceLocation: nil, audioFile: nil, terminal: terminal,
                location: location, environment: [:], logPath: logs ? logPath : nil, memory: AskMemory(store: nil),
                elapsed: { .zero })
            var settings = SettingValues()
            settings.set(Settings.braille, BrailleChoice.none)
            place = OutputPlace(
                terminal: terminal, location: location, environment: [:], appearance: Appearance(settings),
                style: .line, capabilities: TerminalCapabilities(environment: [:]), speech: speech)
        }

        /// What reached the terminal so far, its line endings as newlines.
        func written() -> String {
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            var ready = pollfd(fd: pty.master, events: Int16(POLLIN), revents: 0)
            while poll(&ready, 1, 100) > 0 {
                let count = read(pty.master, &buffer, buffer.count)
                if count <= 0 { break }
                bytes += buffer[..<count]
            }
            // The line discipline's carriage returns are the terminal's, not the output's.
            return String(decoding: bytes.filter { $0 != UInt8(ascii: "\r") }, as: UTF8.self)
        }

        func close() { unlink(logPath) }
    }
}
