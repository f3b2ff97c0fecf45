#if canImport(Glibc)
    import Glibc
#endif

/// A WAV file that behaves like a sound device, for `--audio-file`.
///
/// Timing model: a virtual device that plays what it is given in real time, with a small buffer
/// (`bufferMilliseconds`) so `write` blocks at real-time pace like a device. `flush` keeps exactly
/// the samples the device would have played by then and drops the rest, so an interrupted
/// announcement is truncated in the file as a listener would hear it. When the device runs dry
/// it waits without recording silence: the file is the concatenation of what was heard, so two
/// sessions typed at the same (unhurried) pace produce byte-identical files. `drain` commits
/// everything at once (a file has no listener to wait for). The RIFF sizes are patched by `close`.
public final class WAVFileSink: AudioSink, @unchecked Sendable {
    /// The clock that paces the virtual device; tests may replace it.
    public struct Clock: Sendable {
        public var now: @Sendable () -> UInt64
        public var sleep: @Sendable (_ nanoseconds: UInt64) -> Void

        public init(now: @escaping @Sendable () -> UInt64, sleep: @escaping @Sendable (UInt64) -> Void) {
            self.now = now
            self.sleep = sleep
        }

        /// The monotonic clock and `nanosleep`.
        public static let monotonic = Clock(
            now: { monotonicNanoseconds() },
            sleep: { nanoseconds in
                var time = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
                nanosleep(&time, nil)
            })
    }

    public let path: String
    public let sampleRate: Int
    private let clock: Clock
    private let bufferSamples: Int
    private let descriptor: Int32
    private let isRegularFile: Bool
    /// Samples given to the virtual device and not yet played into the file.
    private var pending: [Int16] = []
    /// When the device started playing `pending[0]`, or nil while it is idle.
    private var pendingStart: UInt64?
    private var dataBytes = 0
    /// The first errno of a failed write, reported by `close`.
    public private(set) var writeError: Int32?

    /// Writes a placeholder header to `descriptor`, which the sink owns from now on.
    /// - Parameter isRegularFile: the header is patched with the real length at the end only in a regular file
    ///   (a FIFO cannot seek; a device needs no header).
    public init(
        descriptor: Int32, isRegularFile: Bool, path: String, sampleRate: Int, bufferMilliseconds: Int = 20,
        clock: Clock = .monotonic
    ) throws(SpeechError) {
        self.isRegularFile = isRegularFile
        self.path = path
        self.sampleRate = sampleRate
        self.clock = clock
        self.bufferSamples = max(1, sampleRate * bufferMilliseconds / 1000)
        self.descriptor = descriptor
        let header = Self.header(sampleRate: sampleRate, dataBytes: 0)
        guard writeAll(header) else {
            let error = writeError ?? EIO
            Glibc.close(descriptor)
            throw .cannotWriteFile(path, error)
        }
        dataBytes = 0
    }

    public func write(_ samples: UnsafeBufferPointer<Int16>) {
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
        if isRegularFile, lseek(descriptor, 0, SEEK_SET) == 0 {
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
        let bytes = pending[0..<count].withUnsafeBytes { Array($0) }
        if writeAll(bytes) { dataBytes += bytes.count }
        pending.removeFirst(count)
    }

    private func writeAll(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                writeError = writeError ?? errno
                return false
            }
            offset += written
        }
        return true
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
