import Foundation
import OTCPromptCore
import OTCPromptTestSupport
import Testing

@testable import OTCPromptHost
@testable import OTCPromptSpeech

extension SpeechTests {
    @Suite struct OutputTests {
        @Test func aSupersededUtteranceStopsWithinOneChunk() throws {
            let sink = RecordingSink(holdFirstWrite: true)
            let backend = EspeakSpeechBackend.start(options: SpeechOptions()) { _ in sink }
            try backend.waitUntilReady()
            backend.speak(Announcement(.readback, "9 8 5, 3 9 1, 6 of 6"))
            #expect(sink.waitForFirstWrite())
            backend.speak(Announcement(.digit, "4"))
            sink.releaseFirstWrite()
            backend.finish(timeout: .seconds(10))
            let events = sink.events
            // The readback's first chunk was in the device; then a flush, then only the new digit.
            #expect(events.count >= 4)
            #expect(events.first.map { if case .write = $0 { true } else { false } } == true)
            #expect(events.dropFirst().first == .flush)
            #expect(events.suffix(2) == [.drain, .close])
            let digitOnly = try samplesSpoken(Announcement(.digit, "4"))
            let afterFlush = events.dropFirst(2).reduce(0) { if case .write(let n) = $1 { $0 + n } else { $0 } }
            // Only the digit follows the flush (give or take espeak-ng's state after an abort).
            #expect(abs(afterFlush - digitOnly.count) < digitOnly.count / 20)
        }

        @Test func theWAVFileIsValidAndItsHeaderMatches() throws {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("otc-\(getpid())-speech.wav").path
            defer { try? FileManager.default.removeItem(atPath: path) }
            let backend = try EspeakSpeechBackend(options: SpeechOptions(), output: try newFile(path))
            backend.speak(Announcement(.digit, "9"))
            backend.finish(timeout: .seconds(10))
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            func le32(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(data[at + $1]) << (8 * $1) } }
            #expect(data.count > 44 + 2000)
            #expect(String(decoding: data[0..<4], as: UTF8.self) == "RIFF" && le32(4) == data.count - 8)
            #expect(String(decoding: data[36..<40], as: UTF8.self) == "data" && le32(40) == data.count - 44)
            #expect(le32(24) == 22050)
            if FileManager.default.isExecutableFile(atPath: "/usr/bin/soxi") {
                let info = try runToCompletion("/usr/bin/soxi", [path])
                #expect(info.contains("Channels       : 1") && info.contains("16-bit"), "\(info)")
            }
        }

        @Test func aFlushKeepsExactlyWhatTheVirtualDeviceHadPlayed() throws {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("otc-\(getpid())-flush.wav").path
            defer { try? FileManager.default.removeItem(atPath: path) }
            let clock = ManualClock()
            guard case .file(let descriptor, _, _, let writer) = try newFile(path) else { return }
            let sink = try WAVFileSink(
                descriptor: descriptor, isRegularFile: true, path: path, writer: writer, sampleRate: 1000,
                bufferMilliseconds: 1000, clock: clock.wavClock)
            let first = [Int16](repeating: 100, count: 500)
            first.withUnsafeBufferPointer { sink.write($0) }
            clock.advance(milliseconds: 200)
            sink.flush()
            clock.advance(milliseconds: 5000)
            let second = [Int16](repeating: 200, count: 300)
            second.withUnsafeBufferPointer { sink.write($0) }
            sink.close()
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            // 200 ms of the first sound were heard; the idle gap left no silence; all of the second.
            #expect(data.count == 44 + (200 + 300) * 2)
        }

        /// A pipe whose reader never reads: once it is full, one chunk waits at most the patience, then the
        /// sink stops (says why) and takes no more: later writes and the close return at once.
        @Test func aPipeWhoseReaderStopsReadingStopsTheSinkAfterItsPatience() throws {
            var ends: [Int32] = [-1, -1]
            try #require(pipe(&ends) == 0)
            defer { close(ends[0]) }
            _ = fcntl(ends[0], 1031, 4096)  // F_SETPIPE_SZ: one page fills at once
            let clock = ManualClock()
            let pipe = OutputFile(descriptor: ends[1], type: S_IFIFO)
            let patience = try #require(pipe.patience)
            let sink = try WAVFileSink(
                descriptor: ends[1], isRegularFile: false, path: "pipe", writer: writer(pipe), sampleRate: 1000,
                bufferMilliseconds: 1, clock: clock.wavClock)
            let chunk = [Int16](repeating: 7, count: 1000)
            let started = MonotonicInstant.now
            for _ in 0..<8 {
                chunk.withUnsafeBufferPointer { sink.write($0) }
                clock.advance(milliseconds: 1000)
            }
            let took = MonotonicInstant.now - started
            #expect(sink.status.failure == "nothing was read from it for 250 ms")
            #expect(took >= patience && took < patience * 4, "\(took)")
            let afterStop = MonotonicInstant.now
            chunk.withUnsafeBufferPointer { sink.write($0) }
            sink.close()
            #expect(MonotonicInstant.now - afterStop < patience)
        }

        @Test func aPipeWhoseReaderWentAwayStopsTheSinkAtOnce() throws {
            signal(SIGPIPE, SIG_IGN)  // as the program does (ProcessHardening): a write gets EPIPE
            var ends: [Int32] = [-1, -1]
            try #require(pipe(&ends) == 0)
            close(ends[0])
            let pipe = OutputFile(descriptor: ends[1], type: S_IFIFO)
            let sink = try WAVFileSink(
                descriptor: ends[1], isRegularFile: false, path: "pipe", writer: writer(pipe), sampleRate: 1000)
            #expect(sink.status.failure == "its reader closed it")
            sink.close()
        }

        /// A new file, opened by the host module as the program opens `--audio-file`.
        private func newFile(_ path: String) throws -> SpeechOutput {
            let file = try OutputFile.open(path: path, option: "--audio-file", appending: false)
            return .file(
                descriptor: file.descriptor, isRegularFile: file.isRegularFile, path: path, writer: writer(file))
        }

        /// The writer the program hands the sink (`SpeechSetup`): the host module's bounded writes.
        private func writer(_ file: OutputFile) -> AudioFileWriter {
            AudioFileWriter(patience: file.patience) { file.write($0)?.rawValue }
        }
    }
}

/// A clock the test moves by hand.
final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var now: UInt64 = 1_000_000_000

    func advance(milliseconds: UInt64) { lock.withLock { now += milliseconds * 1_000_000 } }

    var wavClock: WAVFileSink.Clock {
        WAVFileSink.Clock(
            now: { self.lock.withLock { self.now } },
            sleep: { nanoseconds in self.lock.withLock { self.now += nanoseconds } })
    }
}
