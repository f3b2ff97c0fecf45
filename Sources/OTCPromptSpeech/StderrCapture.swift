import OTCPromptSystem

#if canImport(Glibc)
    import Glibc
#endif

/// Diverts file descriptor 2 into an unlinked temporary file while audio libraries open, so ALSA and
/// PulseAudio chatter never reaches the terminal (a screen reader would read it aloud).
///
/// fd 2 is process-wide: whatever any thread writes to stderr meanwhile is captured too. Captures may
/// overlap (the prepared PulseAudio stream and the engine's start-up run on two threads): the first
/// diverts fd 2, the last one to finish restores it, so fd 2 is never left pointing at a capture file.
/// An unlinked temporary file rather than a pipe, so a chatty library can never fill a pipe and block.
struct StderrCapture: ~Copyable {
    /// What every capture shares: how many are open, the terminal's fd 2 and the file it is diverted to.
    private static let lock = ConditionLock()
    nonisolated(unsafe) private static var open = 0
    nonisolated(unsafe) private static var savedDescriptor: Int32 = -1
    nonisolated(unsafe) private static var captureDescriptor: Int32 = -1

    /// Where this capture's part of the file starts.
    private let start: off_t

    /// Starts capturing; nil when fd 2 cannot be diverted (then nothing is captured).
    init?() {
        let start = Self.lock.withLock { () -> off_t? in
            if Self.open == 0 {
                guard Self.divert() else { return nil }
            }
            Self.open += 1
            return lseek(Self.captureDescriptor, 0, SEEK_END)
        }
        guard let start else { return nil }
        self.start = max(0, start)
    }

    /// Points fd 2 at a new capture file; false when it cannot. The lock is held.
    private static func divert() -> Bool {
        fflush(nil)
        var template = Array("/tmp/otc-prompt-stderr-XXXXXX".utf8CString)
        let capture = template.withUnsafeMutableBufferPointer { name in
            SystemCall.retrying("mkstemp") { mkstemp(name.baseAddress!) }
        }
        guard capture >= 0 else { return false }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        _ = fcntl(capture, F_SETFD, FD_CLOEXEC)
        let saved = fcntl(2, F_DUPFD_CLOEXEC, 3)
        guard saved >= 0, SystemCall.retrying("dup2", { dup2(capture, 2) }) >= 0 else {
            close(capture)
            if saved >= 0 { close(saved) }
            return false
        }
        savedDescriptor = saved
        captureDescriptor = capture
        return true
    }

    /// Ends this capture (fd 2 is restored when it was the last) and returns what was written to fd 2 since
    /// it started: another capture's libraries included, when two overlap.
    consuming func finish() -> String {
        let start = self.start
        discard self
        return Self.lock.withLock {
            fflush(nil)
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            var offset = start
            while bytes.count < 65_536 {
                let count = buffer.withUnsafeMutableBytes { raw in
                    SystemCall.retrying("pread") { pread(Self.captureDescriptor, raw.baseAddress, raw.count, offset) }
                }
                if count <= 0 { break }
                bytes += buffer[0..<count]
                offset += off_t(count)
            }
            Self.release()
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// One capture fewer; the last restores fd 2. The lock is held.
    private static func release() {
        open -= 1
        guard open == 0 else { return }
        fflush(nil)
        _ = SystemCall.retrying("dup2") { dup2(savedDescriptor, 2) }
        close(savedDescriptor)
        close(captureDescriptor)
        savedDescriptor = -1
        captureDescriptor = -1
    }

    deinit {
        Self.lock.withLock { Self.release() }
    }
}
