import Glibc
import OTCPromptCore
import OTCPromptHost
import OTCPromptSystem
import OTCPromptTestSupport
import Testing

@testable import OTCPromptProgram

/// The speech log read back as a listener heard it: each announcement's line, then, once the voice has done with
/// it, a line saying when it began to be heard and whether it was heard to its end or cut, and by what.
@Suite struct SpeechLogWriterTests {
    /// A log in a file of its own, beside a recording voice, on a clock started a second ago.
    private final class Bench {
        let path = "/tmp/otc-speech-log-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).jsonl"
        let start = MonotonicInstant(nanoseconds: MonotonicInstant.now.nanoseconds - 1_000_000_000)
        let voice = RecordingSpeechBackend()
        let writer: SpeechLogWriter

        init(note: String? = "espeak: chosen") throws {
            let start = start
            writer = SpeechLogWriter(
                file: try SpeechLogFile(path: path), note: note, elapsed: { MonotonicInstant.now - start },
                failed: { _ in })
            writer.voice = voice
        }

        deinit { unlink(path) }

        /// As the outputs do: the log first, then the voice.
        func say(_ announcement: Announcement) {
            writer.say(announcement)
            voice.speak(announcement)
        }

        /// `milliseconds` after the clock's start.
        func at(_ milliseconds: Int64) -> MonotonicInstant {
            MonotonicInstant(nanoseconds: start.nanoseconds + milliseconds * 1_000_000)
        }

        var lines: [String] {
            guard let file = fopen(path, "r") else { return [] }
            defer { fclose(file) }
            var lines: [String] = []
            var buffer = [CChar](repeating: 0, count: 4096)
            while fgets(&buffer, Int32(buffer.count), file) != nil {
                lines.append(String(decoding: buffer.prefix { $0 != 0 && $0 != 10 }.map(UInt8.init), as: UTF8.self))
            }
            return lines
        }
    }

    /// Replaces the `"ms": N}` that ends an outcome line, which is the moment of the test's own clock, by `"ms": _}`.
    private func withoutEnd(_ line: String) -> String {
        guard let range = line.range(of: "\"ms\": ", options: .backwards) else { return line }
        return line[..<range.upperBound] + "_}"
    }

    @Test func anOpeningCutByADigitSaysWhenItBeganAndWhatCutItAndTheDigitIsHeardToItsEnd() throws {
        let bench = try Bench()
        bench.say(Announcement(.prompt, "Verification code, 6 digits."))
        bench.voice.hear(began: bench.at(40), heardBy: nil)
        bench.say(Announcement(.digit, "9"))
        bench.voice.hear(began: bench.at(600), heardBy: bench.at(800))
        bench.writer.voiceDone()
        let lines = bench.lines
        #expect(lines.count == 4, "\(lines)")
        guard lines.count == 4 else { return }
        #expect(lines[0].hasPrefix("{\"event\": \"prompt\"") && lines[0].contains("\"n\": 1"))
        #expect(withoutEnd(lines[1]) == "{\"event\": \"cut\", \"of\": 1, \"by\": \"digit\", \"began\": 40, \"ms\": _}")
        #expect(lines[2].hasPrefix("{\"event\": \"digit\", \"text\": \"9\"") && lines[2].contains("\"n\": 2"))
        #expect(lines[3] == "{\"event\": \"heard\", \"of\": 2, \"began\": 600, \"ms\": 800}")
    }

    @Test func anAnnouncementStillBeingMadeWhenThePromptEndsIsCutByTheEnd() throws {
        let bench = try Bench()
        bench.say(Announcement(.complete, "6 of 6. Submitting."))
        bench.voice.hear(began: bench.at(100), heardBy: nil)
        bench.writer.voiceDone()
        #expect(
            withoutEnd(bench.lines.last ?? "")
                == "{\"event\": \"cut\", \"of\": 1, \"by\": \"end\", \"began\": 100, \"ms\": _}")
    }

    @Test func anAnnouncementCutBeforeAnyOfItWasHeardHasNoBeginning() throws {
        let bench = try Bench()
        bench.say(Announcement(.prompt, "Verification code."))
        bench.voice.isSpeaking = true
        bench.say(Announcement(.digit, "1"))
        #expect(withoutEnd(bench.lines[1]) == "{\"event\": \"cut\", \"of\": 1, \"by\": \"digit\", \"ms\": _}")
    }

    @Test func aVoiceThatSaysNothingOfHowItWentLogsNoOutcome() throws {
        let bench = try Bench()
        bench.writer.voice = SilentSpeechBackend()
        bench.writer.say(Announcement(.prompt, "Verification code."))
        bench.writer.say(Announcement(.digit, "1"))
        bench.writer.voiceDone()
        #expect(bench.lines.count == 2)
        #expect(!bench.lines.joined().contains("\"of\""))
    }

    @Test func whileTheWayIsNotKnownOutcomesAreHeldInOrderWithTheirAnnouncements() throws {
        let bench = try Bench(note: nil)
        bench.say(Announcement(.prompt, "Verification code."))
        bench.voice.hear(began: bench.at(10), heardBy: bench.at(20))
        bench.say(Announcement(.digit, "1"))
        #expect(bench.lines.isEmpty)
        bench.writer.settle(note: "espeak: chosen")
        let lines = bench.lines
        #expect(lines.count == 3)
        guard lines.count == 3 else { return }
        #expect(lines[0].contains("\"speech\": \"espeak: chosen\""))
        #expect(lines[1] == "{\"event\": \"heard\", \"of\": 1, \"began\": 10, \"ms\": 20}")
        #expect(lines[2].hasPrefix("{\"event\": \"digit\""))
    }

    @Test func textLinesAreHeardAtOnce() throws {
        let bench = try Bench()
        var written: [String] = []
        let text = TextSpeechBackend { written.append($0) }
        bench.writer.voice = text
        bench.writer.say(Announcement(.prompt, "Verification code."))
        text.speak(Announcement(.prompt, "Verification code."))
        bench.writer.voiceDone()
        let outcome = bench.lines.last ?? ""
        #expect(outcome.hasPrefix("{\"event\": \"heard\", \"of\": 1, \"began\": "), "\(outcome)")
        #expect(written == ["Verification code."])
    }
}
