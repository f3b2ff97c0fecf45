import Foundation
import OTCPromptTestSupport
import Testing

/// On a real pty: a Latin-1 terminal, a field that would wrap, a
/// placeholder of no width, a speech log that cannot be written.
@Suite(.runsPrograms, .serialized)
struct ScreenAndCharsetEndToEndTests {
    /// A locale of the test's own, compiled with localedef into a temporary directory (LOCPATH):
    /// the machine's locale files are never touched.
    static func compiledLocale(_ name: String, source: String, charmap: String) -> String? {
        let directory = NSTemporaryDirectory() + "/otc-e2e-locale-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        guard
            let localedef = try? runWithStatus(
                "/usr/bin/localedef", ["-i", source, "-f", charmap, directory + "/" + name], captureOutput: false)
        else { return nil }
        return exitStatus(localedef.status) == 0 ? directory : nil
    }

    static func latin1Environment(installed: Bool) throws -> [String: String] {
        let directory =
            installed
            ? try #require(compiledLocale("pt_BR.ISO-8859-1", source: "pt_BR", charmap: "ISO-8859-1"))
            : NSTemporaryDirectory() + "/otc-e2e-no-locale-\(UUID().uuidString)"
        return PromptRun.environment(["LANG": "pt_BR.ISO-8859-1", "LOCPATH": directory])
    }

    /// The typed `é` (one byte, 0xE9) is in the secret and goes out as the same byte.
    @Test(arguments: [true, false])
    func aLatin1PasswordKeepsItsAccentedLetter(localeInstalled: Bool) async throws {
        let environment = try Self.latin1Environment(installed: localeInstalled)
        defer { try? FileManager.default.removeItem(atPath: environment["LOCPATH"]!) }
        let run = try await PromptRun(["--charset", "any", "Senha do cofre"], environment: environment, ready: nil)
        #expect(await run.waitForEvent("prompt"))
        for byte: UInt8 in [0x63, 0x61, 0x66, 0xE9] {
            run.type([byte])
            usleep(50_000)
        }
        #expect(await run.logEntries(atLeast: 5).filter { $0.event == "digit" }.count == 4, "the é was dropped")
        run.type("\r")
        #expect(await run.exit() == .exited(0))
        #expect(run.process.standardOutputData == [0x63, 0x61, 0x66, 0xE9, 0x0A])
        #expect(run.terminalRestored)
    }

    /// "Código de verificação" reaches a Latin-1 terminal as Latin-1 bytes (ó = 0xF3), not UTF-8.
    @Test func portugueseWordsAreWrittenInTheTerminalsCharset() async throws {
        let environment = try Self.latin1Environment(installed: true)
        defer { try? FileManager.default.removeItem(atPath: environment["LOCPATH"]!) }
        let run = try await PromptRun(["--style", "line"], environment: environment, ready: nil)
        #expect(await run.waitForEvent("prompt"))
        run.type("123456")
        #expect(await run.exit() == .exited(0))
        let screen = run.process.screenBytesSoFar
        #expect(screen.contains(0xF3), "no Latin-1 ó on the screen")
        let utf8Sequences = zip(screen, screen.dropFirst()).filter {
            (0xC2...0xC3).contains($0) && (0x80...0xBF).contains($1)
        }
        #expect(utf8Sequences.isEmpty, "UTF-8 written to a Latin-1 terminal")
        #expect(run.process.standardOutput == "123456\n")
    }

    /// A charset the prompt cannot read and write: refused before anything is asked, with 78 and a reason.
    @Test(arguments: [("ru_RU.KOI8-R", "ru_RU", "KOI8-R"), ("ja_JP.EUC-JP", nil, nil)] as [(String, String?, String?)])
    func anUnsupportedCharsetIsRefusedClearly(locale: String, source: String?, charmap: String?) async throws {
        var environment = PromptRun.environment(["LANG": locale])
        if let source, let charmap, let directory = Self.compiledLocale(locale, source: source, charmap: charmap) {
            environment["LOCPATH"] = directory
        }
        defer { if let directory = environment["LOCPATH"] { try? FileManager.default.removeItem(atPath: directory) } }
        let process = try PseudoTerminalProcess(
            executable: PromptRun.binary, arguments: ["--speech", "none"], environment: environment)
        #expect(await process.waitForExit(deadline: .seconds(10)) == .exited(78))
        #expect(process.screen.contains("is not supported"))
        #expect(process.standardOutput == "")
        #expect(sameAttributes(process.attributesAtStart, process.slaveAttributes()))
    }

    /// `--stdin` reads the line in the locale's charset too: Latin-1 `é` in, the same byte out; a
    /// charset it cannot read is refused with 78, never guessed.
    @Test(
        arguments: [("pt_BR.ISO-8859-1", 0, [0x63, 0x61, 0x66, 0xE9, 0x0A]), ("ru_RU.KOI8-R", 78, [])]
            as [(String, Int32, [UInt8])])
    func standardInputIsReadInTheLocalesCharset(locale: String, status: Int32, output: [UInt8]) async throws {
        let path = NSTemporaryDirectory() + "/otc-stdin-\(UUID().uuidString)"
        #expect(FileManager.default.createFile(atPath: path, contents: Data([0x63, 0x61, 0x66, 0xE9, 0x0A])))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let process = try PseudoTerminalProcess(
            executable: "/bin/sh",
            arguments: ["-c", "exec \"$0\" --stdin --charset any < \"$1\"", PromptRun.binary, path],
            environment: PromptRun.environment(["LANG": locale, "LOCPATH": "/nonexistent"]), terminal: false)
        #expect(await process.waitForExit(deadline: .seconds(10)) == .exited(status))
        #expect(process.standardOutputData == output)
    }

    static func count(_ text: String, in screen: String) -> Int { screen.components(separatedBy: text).count - 1 }

    /// A 20-column pane (line and boxes) and a long label at 80 columns: Ctrl-L and resizes redraw
    /// the field's row alone, and Backspace works.
    @Test(
        arguments: [
            (20, "", ["--style", "line"]), (20, "", ["--style", "boxes"]),
            (80, String(repeating: "Enter the code from your authenticator app ", count: 2), ["--style", "line"]),
        ] as [(Int, String, [String])])
    func aFieldThatWouldWrapIsRedrawnOnceAndBackspaceWorks(columns: Int, label: String, options: [String]) async throws
    {
        let labelShown = label.isEmpty ? "Verification code" : "Enter the code"
        let arguments = ["--speech", "none"] + options + (label.isEmpty ? [] : [label])
        let process = try PseudoTerminalProcess(
            executable: PromptRun.binary, arguments: arguments, environment: PromptRun.environment(), columns: columns)
        #expect(await process.waitForScreen(containing: labelShown, deadline: .seconds(10)))
        process.type("129")
        process.type([0x0C])
        process.type([0x0C])
        for width in [columns - 1, columns + 3, columns] {
            process.resize(columns: width, rows: 24)
            usleep(100_000)
        }
        process.type([0x7F])
        usleep(100_000)
        process.type([0x0C])
        process.type("3456")
        #expect(await process.waitForExit(deadline: .seconds(10)) == .exited(0))
        #expect(process.standardOutput == "123456\n")
        let times = label.isEmpty ? 1 : 2
        #expect(
            Self.count(labelShown, in: process.screen) == times,
            "the label drawn again: \(process.screen.debugDescription)")
        #expect(sameAttributes(process.attributesAtStart, process.slaveAttributes()))
    }

    @Test(arguments: ["\u{301}", "\u{200B}", "界"])
    func aPlaceholderThatIsNotOneColumnIsAUsageError(placeholder: String) async throws {
        let process = try PseudoTerminalProcess(
            executable: PromptRun.binary, arguments: ["--placeholder", placeholder],
            environment: PromptRun.environment(),
            standardError: .pipe)
        #expect(await process.waitForExit(deadline: .seconds(10)) == .exited(64))
        #expect(process.standardErrorText.contains("one column wide"))
    }

    /// A log that cannot be written is said on the screen, once, and the prompt goes on.
    @Test func aSpeechLogThatCannotBeWrittenIsSaidOnce() async throws {
        let process = try PseudoTerminalProcess(
            executable: PromptRun.binary, arguments: ["--speech", "none", "--speech-log", "/dev/full"],
            environment: PromptRun.environment())
        #expect(await process.waitForScreen(containing: "cannot be written", deadline: .seconds(10)))
        process.type("123456")
        #expect(await process.waitForExit(deadline: .seconds(10)) == .exited(0))
        #expect(Self.count("cannot be written", in: process.screen) == 1)
        #expect(process.standardOutput == "123456\n")
    }
}
