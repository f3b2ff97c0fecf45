import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// Speech that stops (speech-dispatcher killed, an audio file's reader gone) or turns out not to be there
/// once the field is drawn: the screen, read line by line as a braille display reads it (`ScreenModel`),
/// holds the notice on a line of its own, then the announcements and nothing else: the field is erased (it
/// would no longer track what is typed), never a notice glued to it, never a field echo glued to a line.
@Suite(.runsPrograms, .serialized)
struct TextFallbackScreenEndToEndTests {
    /// Checks the switch on `lines`: no line before the notice (the first line starting with `notice`) is the
    /// field, which `isField` recognises, and every line after it is one of the last announcements, in order.
    func expectCleanSwitch(
        _ lines: [String], notice: String, isField: (String) -> Bool, log: [LogEntry], raw: [UInt8] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard let index = lines.firstIndex(where: { $0.hasPrefix(notice) }) else {
            Issue.record("no notice on a line of its own: \(lines)", sourceLocation: sourceLocation)
            return
        }
        #expect(lines.filter { $0.contains(notice) }.count == 1, "said once: \(lines)", sourceLocation: sourceLocation)
        let fieldLeft = lines[..<index].contains(where: isField)
        #expect(!fieldLeft, "the field was erased: \(lines)", sourceLocation: sourceLocation)
        let after = Array(lines[(index + 1)...])
        let said = log.map(\.text)
        #expect(!after.isEmpty, sourceLocation: sourceLocation)
        // Each announcement on lines of its own: an opening's parts each a line, said (and logged) as one flow.
        let flowed = after.joined(separator: " ")
        #expect(
            (1...said.count).contains { said.suffix($0).joined(separator: " ") == flowed },
            "lines \(after), announcements \(said); the terminal's bytes: \(String(decoding: raw, as: UTF8.self).debugDescription)",
            sourceLocation: sourceLocation)
    }

    /// "Verification code: " and some of the code typed, nothing else on the line: as a line, or in boxes
    /// (each character between two edges, an empty box's placeholder).
    func isCodeField(_ line: String) -> Bool {
        let label = "Verification code: "
        guard line.hasPrefix(label) else { return false }
        let typed = line.dropFirst(label.count).filter { !"▕▏•".contains($0) }
        return !typed.isEmpty && "985391".hasPrefix(typed)
    }

    @Test(
        .enabled(
            if: PrivateSpeechDispatcher.isInstalled && PrivatePulseAudio.isInstalled,
            "needs speech-dispatcher, speech-dispatcher-espeak-ng, pulseaudio, parec and sox (make deps)"))
    func speechDispatcherKilledMidPromptErasesTheFieldThenTheNoticeThenAnnouncementLines() async throws {
        let pulse = try #require(PrivatePulseAudio.start(), "PulseAudio is installed but did not start")
        defer { pulse.stop() }
        let speechd = try #require(
            PrivateSpeechDispatcher.start(pulse: pulse), "speech-dispatcher is installed but did not start")
        defer { speechd.stop() }
        let run = try await PromptRun(
            [], environment: PromptRun.environment(speechd.clientEnvironment), speech: "speechd")
        // The voice up first: the log is held until speech-dispatcher has answered, and keys typed before that are
        // caught up as one opening for the field as it is then ("Verification code, 9 8. …", `HeldSpeech.catchUp`),
        // which the log does not hold. A loaded machine drew the field seconds before the server answered.
        #expect(await !run.logEntries(atLeast: 1, deadline: .seconds(20)).isEmpty)
        run.type("98")
        #expect(await run.logEntries(atLeast: 3).count >= 3)
        speechd.kill()  // only the server this test started, by its PID
        for (count, digit) in zip(4..., "5391") {
            run.type(String(digit))
            #expect(await run.logEntries(atLeast: count).count >= count)
        }
        #expect(await run.exit() == .exited(0))
        #expect(run.process.standardOutput == "985391\n")
        let lines = run.process.screenLines()
        expectCleanSwitch(
            lines, notice: "otc-prompt: speech-dispatcher stopped answering; announcements shown as text",
            isField: isCodeField, log: await run.logEntries(), raw: run.process.screenBytesSoFar)
        #expect(lines.last?.hasPrefix("1") == true, "the last words are a line: \(lines)")
    }

    @Test func anAudioFileWhoseReaderGoesAwayErasesTheFieldThenTheNoticeThenAnnouncementLines() async throws {
        let fifo = NSTemporaryDirectory() + "/otc-e2e-\(UUID().uuidString).fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let reader = try #require(Drain(path: fifo, limit: 8192))
        defer { reader.stop() }
        let run = try await PromptRun(["--audio-file", fifo], speech: "espeak")
        #expect(reader.wait(forAtLeast: 8192, deadline: .seconds(5)))
        reader.stop()
        // Keys at a person's pace (at most 400 ms apart, the next one as soon as the stop is shown): the stop
        // is seen when a key is announced, and the keys after it must be text lines.
        let notice = "otc-prompt: the audio file \(fifo) takes no more audio"
        var keysAfterTheNotice = 0
        for (count, digit) in zip(2..., "985391") {
            run.type(String(digit))
            #expect(await run.logEntries(atLeast: count).count >= count)
            if keysAfterTheNotice > 0
                || run.process.waitForScreenLines(
                    deadline: .milliseconds(400), until: { $0.contains { $0.contains(notice) } })
            {
                keysAfterTheNotice += 1
            }
        }
        #expect(keysAfterTheNotice >= 2, "the stop was seen mid-prompt")
        #expect(await run.exit() == .exited(0))
        #expect(run.process.standardOutput == "985391\n")
        expectCleanSwitch(run.process.screenLines(), notice: notice, isField: isCodeField, log: await run.logEntries())
    }

    /// The reader goes away while nothing plays: the stop is met by the next words ("5"), and seen only at
    /// the key after them ("3"); the words the file stopped during are shown too, not lost.
    @Test func anAudioFileThatStopsBetweenKeysShowsTheWordsItStoppedDuring() async throws {
        let fifo = NSTemporaryDirectory() + "/otc-e2e-\(UUID().uuidString).fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let reader = try #require(Drain(path: fifo, limit: nil))
        defer { reader.stop() }
        let run = try await PromptRun(["--audio-file", fifo], speech: "espeak")
        run.type("98")
        #expect(await run.logEntries(atLeast: 3).count >= 3)
        #expect(reader.waitUntilQuiet(for: .milliseconds(500), deadline: .seconds(10)), "the words were played")
        reader.stop()
        let notice = "otc-prompt: the audio file \(fifo) takes no more audio"
        run.type("5")
        #expect(await run.logEntries(atLeast: 4).count >= 4)
        // Time for its audio to meet the closed FIFO; the stop is not seen until the next key.
        _ = run.process.waitForScreenLines(deadline: .milliseconds(400)) { $0.contains { $0.contains(notice) } }
        run.type("3")
        #expect(run.process.waitForScreenLines(deadline: .seconds(5)) { $0.contains { $0.contains(notice) } })
        run.type("91")
        #expect(await run.exit() == .exited(0))
        #expect(run.process.standardOutput == "985391\n")
        let lines = run.process.screenLines()
        expectCleanSwitch(lines, notice: notice, isField: isCodeField, log: await run.logEntries())
        let after = lines.drop { !$0.hasPrefix(notice) }.dropFirst()
        #expect(after.prefix(2) == ["5", "3"], "\(lines)")
    }

    @Test func speechUnavailableOnceTheBoxesAreDrawnErasesThemAndTextLinesFollow() async throws {
        let run = try await PromptRun(["--style", "boxes"], speech: "espeak")
        let notice = "otc-prompt: speech unavailable: no audio device; announcements shown as text"
        #expect(run.process.waitForScreenLines(deadline: .seconds(5)) { $0.contains(notice) })
        run.type("98")
        #expect(await run.logEntries(atLeast: 3).count >= 3)
        run.process.sendSignal(SIGTERM)
        #expect(await run.exit() == .signaled(SIGTERM))
        let lines = run.process.screenLines()
        // The boxes are erased: no box is left above the notice.
        let index = try #require(lines.firstIndex(of: notice), "\(lines)")
        #expect(!lines[..<index].joined().contains("▕"), "\(lines)")
        expectCleanSwitch(lines, notice: notice, isField: { $0.contains("▕") }, log: await run.logEntries())
        #expect(lines.suffix(2) == ["9", "8"], "\(lines)")
    }

    @Test func theNoticeIsInTheUsersLanguage() async throws {
        let run = try await PromptRun(["--lang", "pt"], speech: "espeak", ready: "Código de verificação")
        let notice = "otc-prompt: fala indisponível: nenhum dispositivo de áudio; anúncios mostrados como texto"
        #expect(run.process.waitForScreenLines(deadline: .seconds(5)) { $0.contains(notice) })
        run.process.sendSignal(SIGTERM)
        #expect(await run.exit() == .signaled(SIGTERM))
    }
}
