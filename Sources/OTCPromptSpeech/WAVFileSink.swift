import OTCPromptSystem
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Why audio to `--audio-file` stopped, set by the writer thread and read by the prompt's: a FIFO whose
/// reader stopped reading or went away. nil while the audio flows.
public final class AudioFileStatus: Sendable {
    private let stopped = Mutex<(why: String, during: UInt64)?>(nil)
    /// The engine's announcements, numbered: the stop notes which one was newest.
    let generations: GenerationCounter

    public init() { generations = GenerationCounter() }

    /// Why the file takes no more audio; nil while it does.
    public var failure: String? { stopped.withLock { $0?.why } }

    /// The number of the newest announcement asked for when the file stopped (`EspeakSpeechBackend.speak`
    /// numbers them): that one and every later one went unheard, whole or in part.
    public var stoppedDuring: UInt64? { stopped.withLock { $0?.during } }

    /// Records the first reason; later ones change nothing.
    func stop(because why: String) {
        let newest = generations.current
        stopped.withLock { if $0 == nil { $0 = (why, newest) } }
    }
}

/// A WAV file that behaves like a sound device, for `--audio-file`.
///
/// Timing model: a virtual device that plays what it is given in real time, with a small buffer
/// (`bufferMilliseconds`) so `write` blocks at real-time pace like a device. `flush` keeps exactly
/// the samples the device would have played by then and drops the rest, so an interrupted
/// announcement is truncated in the file as a listener would hear it. When the device runs dry
/// it waits without recording silence: the file is the concatenation of what was heard, so two
/// sessions typed at the same (unhurried) pace produce byte-identical files. `drain` commits
/// everything at once (a file has no listener to wait for). The RIFF sizes are patched by `close`.
///
/// A FIFO or socket (a player reading it) is written without blocking (`AudioFileWriter`), each chunk
/// given at most its `patience` to find room: a reader that stops reading, or goes away, stops the audio
/// to the file (`status` says why) instead of holding the writer thread, and the prompt goes on.
public final class WAVFileSink: AudioSink, @unchecked Sendable {
    /// The clock that paces the virtual device; tests may replace it.
    public struct Clock: Sendable {
        public var now: @Sendable () -> UInt64
        public var sleep: @Sendable (_ nanoseconds: UInt64) -> Void

        public init(now: @escaping @Sendable () -> UInt64, sleep: @escaping @Sendable (UInt64) -> Void) {
            self.now = now
            self.sleep = sleep
        }

        /// The door's monotonic clock and `nanosleep`.
        public static let monotonic = Clock(
            now: { monotonicNanoseconds() },
            sleep: { nanoseconds in
                var time = Duration.nanoseconds(Int64(clamping: nanoseconds)).timespec
                nanosleep(&time, nil)
            })
    }

    public let path: String
    public let sampleRate: Int
    private let clock: Clock
    private let bufferSamples: Int
    private let descriptor: Int32
    private let isRegularFile: Bool
    private let writer: AudioFileWriter
    /// Samples given to the virtual device and not yet played into the file.
    private var pending: [Int16] = []
    /// When the device started playing `pending[0]`, or nil while it is idle.
    private var pendingStart: UInt64?
    private var dataBytes = 0
    /// The first errno of a failed write, reported by `close`.
    public private(set) var writeError: Int32?
    /// Where a stop is told; once stopped, nothing more is written.
    public let status: AudioFileStatus

    /// Writes a placeholder header to `descriptor`, which the sink owns from now on, through `writer`.
    /// - Parameter isRegularFile: the header is patched with the real length at the end only in a regular file
    ///   (a FIFO cannot seek; a device needs no header).
    public init(
        descriptor: Int32, isRegularFile: Bool, path: String, writer: AudioFileWriter, sampleRate: Int,
        bufferMilliseconds: Int = 20, clock: Clock = .monotonic, status: AudioFileStatus = AudioFileStatus()
    ) throws(SpeechError) {
        self.isRegularFile = isRegularFile
        self.path = path
        self.writer = writer
        self.sampleRate = sampleRate
        self.clock = clock
        self.bufferSamples = max(1, sampleRate * bufferMilliseconds / 1000)
        self.descriptor = descriptor
        self.status = status
        let header = Self.header(sampleRate: sampleRate, dataBytes: 0)
        // A pipe's reader that takes no header is told like one that stops later: the prompt goes on.
        guard writeAll(header) || writer.patience != nil else {
            let error = writeError ?? EIO
            Glibc.close(descriptor)
            throw .cannotWriteFile(path, error)
        }
        dataBytes = 0
    }

    public func write(_ samples: UnsafeBufferPointer<Int16>) {
        guard status.failure == nil else { return }  // nothing more is written: no pace to keep
        playElapsed()
        if pendingStart == nil { pendingStart = clock.now() }
        pending.append(contentsOf: samples)
        while pending.count > bufferSamples {
            let excess = pending.count - bufferSamples
            clock.sleep(UInt64(excess) * 1_000_000_000 / UInt64(sampleRate))
            playElapsed()
        }
    }

    public func flush() {
        playElapsed()
        pending.removeAll(keepingCapacity: true)
        pendingStart = nil
    }

    public func drain() {
        commit(pending.count)
        pendingStart = nil
    }

    public func close() {
        drain()
        let header = Self.header(sampleRate: sampleRate, dataBytes: dataBytes)
        if isRegularFile, status.failure == nil, SystemCall.retrying("lseek", { lseek(descriptor, 0, SEEK_SET) }) == 0 {
            _ = writeAll(header)
        }
        Glibc.close(descriptor)
    }

    /// Moves what the virtual device has played by now from `pending` into the file.
    private func playElapsed() {
        guard let start = pendingStart else { return }
        let elapsed = clock.now() &- start
        let played = min(pending.count, Int(elapsed * UInt64(sampleRate) / 1_000_000_000))
        commit(played)
        pendingStart = pending.isEmpty ? nil : start + UInt64(played) * 1_000_000_000 / UInt64(sampleRate)
    }

    private func commit(_ count: Int) {
        guard count > 0 else { return }
        guard status.failure == nil else {
            pending.removeFirst(count)
            return
        }
        let bytes = pending[0..<count].withUnsafeBytes { Array($0) }
        if writeAll(bytes) { dataBytes += bytes.count }
        pending.removeFirst(count)
    }

    /// Writes all of `bytes`; false when the writer could not, the first such errno kept, and a pipe stopped.
    private func writeAll(_ bytes: [UInt8]) -> Bool {
        guard let failure = bytes.withUnsafeBytes(writer.write) else { return true }
        writeError = writeError ?? failure
        if let patience = writer.patience { status.stop(because: Self.reason(failure, patience: patience)) }
        return false
    }

    /// What a failed write to a pipe means to the user.
    private static func reason(_ failure: Int32, patience: Duration) -> String {
        switch failure {
        case ETIMEDOUT: "nothing was read from it for \(Int(patience / .milliseconds(1))) ms"
        case EPIPE: "its reader closed it"
        default: String(cString: strerror(failure))
        }
    }

    /// The 44-byte RIFF/WAVE header of 16-bit mono PCM.
    static func header(sampleRate: Int, dataBytes: Int) -> [UInt8] {
        func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        func le16(_ value: Int) -> [UInt8] { (0..<2).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        return Array("RIFF".utf8) + le32(36 + dataBytes) + Array("WAVE".utf8)
            + Array("fmt ".utf8) + le32(16) + le16(1) + le16(1) + le32(sampleRate) + le32(sampleRate * 2)
            + le16(2) + le16(16) + Array("data".utf8) + le32(dataBytes)
    }
}
