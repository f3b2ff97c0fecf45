import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// An `--audio-file` FIFO whose reader stops reading, or goes away,
/// never holds the prompt. Each chunk of audio waits at most 250 ms for room; then audio to the file
/// stops, announcements become text lines after one notice, and every key counts, on time. (A FIFO with
/// no reader at all is refused at once, exit 64: `RobustnessEndToEndTests.aFIFOWithoutAReaderIsRefusedAtOnce`.)
@Suite(.runsPrograms, .serialized)
struct AudioFileFIFOEndToEndTests {
    /// What the program at the other end of the FIFO does.
    enum Reader: String, CaseIterable, CustomTestStringConvertible {
        /// Opens it and never reads.
        case neverReads
        /// Reads the WAV header and the first 8 KiB, then stops.
        case stopsAfterTheStart
        /// Reads the start, then closes it (a player that quit).
        case goesAway
        /// Reads everything: the control, where nothing stops.
        case keepsReading

        var testDescription: String { rawValue }
    }

    @Test(arguments: Reader.allCases)
    func aReaderThatStopsReadingNeverHoldsThePromptAndTheFallbackIsSaidOnce(reader kind: Reader) async throws {
        let fifo = NSTemporaryDirectory() + "/otc-e2e-\(UUID().uuidString).fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let drained = try #require(
            Drain(path: fifo, limit: kind == .keepsReading ? nil : (kind == .neverReads ? 0 : 8192)))
        defer { drained.stop() }

        let run = try await PromptRun(["--audio-file", fifo], speech: "espeak")
        if kind == .goesAway {
            #expect(drained.wait(forAtLeast: 8192, deadline: .seconds(5)))
            drained.stop()
        }
        // Typed at a person's pace while the reader fails: every key is taken and logged on time.
        let clock = ContinuousClock()
        var typedAt: [ContinuousClock.Instant] = []
        for digit in "985391" {
            typedAt.append(clock.now)
            run.type(String(digit))
            ShellAfterPrompt.pause(.milliseconds(400))
        }
        let lastKey = clock.now
        #expect(await run.exit() == .exited(0))
        let exitedAfter = clock.now - lastKey
        #expect(run.process.standardOutput == "985391\n")
        #expect(run.terminalRestored)
        let digits = await run.logEntries(atLeast: 7).filter { $0.event == "digit" || $0.event == "complete" }
        #expect(digits.count == 6, "\(digits)")
        // On time: each key was taken about when it was typed, none held up behind the audio (a writer waiting for
        // the reader holds a key for seconds). Measured from the first key, typing against logging: a loaded machine
        // may stall the prompt a few hundred ms, which shortens the next gap but makes no key late.
        let typed = typedAt.map { Int(($0 - typedAt[0]) / .milliseconds(1)) }
        let lags = zip(digits, typed).map { ($0.ms - digits[0].ms) - $1 }
        #expect(digits.count == typed.count && lags.allSatisfy { $0 < 1000 }, "milliseconds late, each key: \(lags)")
        let notice = "takes no more audio"
        let screen = run.process.screen.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        if kind == .keepsReading {
            #expect(!screen.contains(notice))
            #expect(drained.count > 44)
        } else {
            #expect(screen.components(separatedBy: notice).count == 2, "\(run.process.screen)")
            // The last words did not wait for a reader that will not read: no 3 s final-speech limit.
            #expect(exitedAfter < .milliseconds(1500), "exited \(exitedAfter) after the last key")
        }
    }
}

/// The FIFO's reader: opens it, reads it on a thread of its own up to `limit` bytes (nil: all), then
/// keeps it open without reading until `stop()`, which closes it on that thread and waits for the end.
final class Drain: @unchecked Sendable {
    private let lock = NSLock()
    private var total = 0
    private var stopped = false
    private var finished = false

    init?(path: String, limit: Int?) {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        Thread.detachNewThread { [self] in
            defer {
                close(descriptor)
                lock.lock()
                finished = true
                lock.unlock()
            }
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                lock.lock()
                let (done, full) = (stopped, limit.map { total >= $0 } ?? false)
                lock.unlock()
                if done { return }
                let room = limit.map { min(buffer.count, $0 - count) } ?? buffer.count
                let got = full ? 0 : read(descriptor, &buffer, room)
                if got > 0 {
                    lock.lock()
                    total += got
                    lock.unlock()
                } else {
                    usleep(5_000)
                }
            }
        }
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return total
    }

    func wait(forAtLeast bytes: Int, deadline: Duration) -> Bool {
        let clock = ContinuousClock()
        let end = clock.now + deadline
        while count < bytes, clock.now < end { usleep(10_000) }
        return count >= bytes
    }

    /// Waits until nothing more has come for `quiet` (the words played to their end), at most `deadline`.
    func waitUntilQuiet(for quiet: Duration, deadline: Duration) -> Bool {
        let clock = ContinuousClock()
        let end = clock.now + deadline
        var last = (count: count, at: clock.now)
        while clock.now < end {
            usleep(20_000)
            let now = count
            if now != last.count {
                last = (now, clock.now)
            } else if now > 0, clock.now - last.at >= quiet {
                return true
            }
        }
        return false
    }

    /// Stops reading and closes the FIFO (a reader that went away); waits at most 2 s for the thread.
    func stop() {
        lock.lock()
        stopped = true
        lock.unlock()
        let clock = ContinuousClock()
        let end = clock.now + .seconds(2)
        while clock.now < end {
            lock.lock()
            let done = finished
            lock.unlock()
            if done { return }
            usleep(5_000)
        }
    }
}
