import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// The built prompt, as the real clients run it.
enum Askpass {
    /// The binary the clients run: a copy of what `swift build` put in .build (OTC_PROMPT_BINARY overrides), in a
    /// directory of the test process's own that anyone may enter. The clients run it as the throwaway user, who
    /// cannot reach a checkout under a 0700 directory (a clone in `mktemp -d`, or under /root). Removed at exit.
    static let binary: String = {
        let source =
            ProcessInfo.processInfo.environment["OTC_PROMPT_BINARY"]
            ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".build/debug/otc-prompt")
            .path
        var template = Array("/tmp/otc-login-binary-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else { return source }
        let directory = String(cString: made)
        let copy = directory + "/otc-prompt"
        // Made here, by this process: its mode is ours to set.
        guard chmod(directory, 0o755) == 0, copyInAChild(source, to: copy)
        else { return source }
        atexit { try? FileManager.default.removeItem(atPath: (Askpass.binary as NSString).deletingLastPathComponent) }
        return copy
    }()

    /// Copies `source` to a new file `destination`, mode 0755, in a child process (install(1)), so that this process
    /// never holds the copy open for writing. Other tests start programs meanwhile, and a descriptor closed on exec
    /// is closed only once the child's exec is under way: under load, a program spawned while the copy was open
    /// still held it when the first client ran the copy, and that exec failed with ETXTBSY ("Text file busy"); the
    /// askpass wrapper ended at once, having drawn nothing but sh's error.
    private static func copyInAChild(_ source: String, to destination: String) -> Bool {
        guard
            let install = try? PseudoTerminalProcess(
                executable: "/usr/bin/install", arguments: ["-m", "0755", source, destination],
                environment: ["PATH": "/usr/bin:/bin"], terminal: false)
        else { return false }
        return install.waitForExit(deadline: .seconds(60)) == .exited(0)
    }

    /// The user guide's wrapper (`exec otc-prompt --askpass OPTIONS -- "$@"`), with a speech log, written
    /// into `directory` as an executable script anyone may run; returns its path. Without `separator` the
    /// `--` is left out, as in a wrapper written before the guide showed it.
    static func wrapper(
        in directory: ScratchDirectory, speechLog: String, separator: Bool = true, speech: String = "none",
        name: String = "otc-askpass"
    ) throws -> String {
        try directory.write(
            name,
            """
            #!/bin/sh
            exec '\(binary)' --askpass --speech \(speech) --speech-log '\(speechLog)' \(separator ? "-- " : "")"$@"

            """, mode: 0o755)
    }

    /// A config file that keeps the bare binary silent (no audio device in tests); returns its path.
    static func quietConfig(in directory: ScratchDirectory) throws -> String {
        try directory.write("otc-prompt.toml", "speech = \"none\"\n")
    }
}

/// A real client (sudo, ssh, git, ssh-agent) running on a fresh pseudo-terminal, typed at as a person would.
final class ClientRun {
    let process: PseudoTerminalProcess

    /// How long a test waits, once it has seen a question, before typing: the program's type-ahead
    /// grace (`ConfirmSession.grace`, 300 ms), in which keys are dropped as typed too early. The grace
    /// begins before the question is shown, so it has passed when this has, even on a loaded machine;
    /// a password or code prompt has no grace, only the discarded queue, which is gone once it is shown.
    static let reactionTime: Duration = .milliseconds(300)

    init(_ arguments: [String], environment: [String: String]) throws {
        process = try PseudoTerminalProcess(
            executable: arguments[0], arguments: Array(arguments.dropFirst()), environment: environment)
    }

    /// A plain terminal's environment with no audio server, plus `extra`.
    static func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = [
            "TERM": "xterm-256color", "LANG": "C.UTF-8", "PATH": "/usr/sbin:/usr/bin:/sbin:/bin",
            "PULSE_SERVER": "unix:/nonexistent",
        ]
        environment.merge(extra) { $1 }
        return environment
    }

    /// Waits until the screen shows `text`.
    @discardableResult
    func waitForScreen(_ text: String, deadline: Duration = .seconds(15)) -> Bool {
        waitUntil(deadline: deadline) { process.screen.contains(text) }
    }

    /// Waits until the askpass has asked `question` for the `call`-th time: on the screen for the first call,
    /// and from the speech log's "prompt" announcements (one per askpass run) when a log is given, since a
    /// prompt redraws its line as keys arrive.
    @discardableResult
    func waitForQuestion(_ question: String, call: Int = 1, speechLog: String? = nil) -> Bool {
        let onScreen = waitForScreen(question)
        guard let speechLog else { return onScreen && call == 1 }
        return waitUntil(deadline: .seconds(15)) {
            SpokenLine.read(speechLog).filter { $0.event == "prompt" && $0.text.contains(question) }.count >= call
        }
    }

    /// Waits for the question, lets a person's reaction time pass, then types `text` key by key.
    func answer(
        _ text: String, after question: String, call: Int = 1, speechLog: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let asked = waitForQuestion(question, call: call, speechLog: speechLog)
        #expect(
            asked, "never asked: \(question) (call \(call)); screen: \(visibleScreen)", sourceLocation: sourceLocation)
        pause(Self.reactionTime)
        typeKeys(text)
    }

    /// A barrier instead of a guess at time: once the grace has passed, asks for the question again
    /// (Ctrl-R) and waits until it has been said its `count`-th time in `speechLog`. Keys are read in
    /// order, so everything typed before was read by then, and answered nothing, or the askpass would
    /// have ended instead of reading the question back.
    @discardableResult
    func readBack(_ question: String, untilSaid count: Int, speechLog: String) -> Bool {
        pause(Self.reactionTime)
        process.type([0x12])
        return waitForQuestion(question, call: count, speechLog: speechLog)
    }

    /// Waits until the askpass has said how to answer `count` times in `speechLog`, as it does after
    /// each line that is no answer: that line was read, and answered nothing.
    @discardableResult
    func waitForHelp(count: Int, speechLog: String) -> Bool {
        waitUntil(deadline: .seconds(15)) {
            _ = process.screen  // keeps reading the terminal, so the askpass is never blocked writing to it
            return SpokenLine.read(speechLog).filter { $0.event == "help" }.count >= count
        }
    }

    /// Types `text` one key at a time, 30 ms apart.
    func typeKeys(_ text: String) {
        for character in text {
            process.type(String(character))
            pause(.milliseconds(30))
        }
    }

    /// Waits for the client to end; nil if it did not within `deadline`.
    func exit(deadline: Duration = .seconds(30)) -> ExitStatus? {
        process.waitForExit(deadline: deadline)
    }

    /// True when the terminal's settings are byte for byte what they were before the client started.
    var terminalRestored: Bool {
        process.attributesAtStart.bytes == process.slaveAttributes().bytes
    }

    /// What a person saw: the screen without escape sequences.
    var visibleScreen: String { visibleText(process.screen) }
}

/// Sleeps `duration` while nothing else needs doing (the harness reads the screen when it waits).
func pause(_ duration: Duration) {
    let (seconds, attoseconds) = duration.components
    usleep(useconds_t(seconds * 1_000_000 + attoseconds / 1_000_000_000_000))
}

/// One line of a speech log: what the prompt said.
struct SpokenLine: Equatable, CustomStringConvertible {
    var event: String
    var text: String
    var description: String { "\(event): \(text)" }

    /// Every announcement of the log at `path` (none if it does not exist); not the lines saying how each was heard.
    static func read(_ path: String) -> [SpokenLine] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let event = object["event"] as? String
            else { return SpokenLine(event: "<malformed>", text: String(line)) }
            if object["of"] is Int { return nil }
            guard let text = object["text"] as? String else {
                return SpokenLine(event: "<malformed>", text: String(line))
            }
            return SpokenLine(event: event, text: text)
        }
    }

    /// For each time `question` was asked (case ignored), what was said before it since the previous time: the
    /// announcements in between and the words of the asking announcement that come before the question.
    static func saidBefore(_ question: String, in path: String) -> [String] {
        var said: [String] = []
        var since = ""
        for line in read(path).map({ $0.text.lowercased() }) {
            if let range = line.range(of: question.lowercased()) {
                said.append(since + " " + line[..<range.lowerBound])
                since = ""
            } else {
                since += " " + line
            }
        }
        return said
    }

    /// Whether `text` says that an answer was not accepted.
    static func saysRefused(_ text: String) -> Bool {
        ["not accepted", "rejected", "refused", "wrong", "try again"].contains { text.contains($0) }
    }

    /// Everything said in the log at `path`, one announcement per line.
    static func transcript(_ path: String) -> String {
        read(path).map(\.text).joined(separator: "\n")
    }
}
