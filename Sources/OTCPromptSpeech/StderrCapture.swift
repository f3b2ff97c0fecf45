import OTCPromptSystem

#if canImport(Glibc)
    import Glibc
#endif

/// Diverts file descriptor 2 into an unlinked temporary file while audio libraries open, so ALSA and
/// PulseAudio chatter never reaches the terminal (a screen reader would read it aloud).
///
/// fd 2 is process-wide: whatever any thread writes to stderr meanwhile is captured too.
/// An unlinked temporary file rather than a pipe, so a chatty library can never fill a pipe and block.
struct StderrCapture: ~Copyable {
    private let savedDescriptor: Int32
    private let captureDescriptor: Int32

    /// Starts capturing; nil when fd 2 cannot be diverted (then nothing is captured).
    init?() {
        fflush(nil)
        var template = Array("/tmp/otc-prompt-stderr-XXXXXX".utf8CString)
        let capture = template.withUnsafeMutableBufferPointer { name in
            SystemCall.retrying("mkstemp") { mkstemp(name.baseAddress!) }
        }
        guard capture >= 0 else { return nil }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        _ = fcntl(capture, F_SETFD, FD_CLOEXEC)
        let saved = SystemCall.retrying("dup") { dup(2) }
        guard saved >= 0, SystemCall.retrying("dup2", { dup2(capture, 2) }) >= 0 else {
            close(capture)
            if saved >= 0 { close(saved) }
            return nil
        }
        savedDescriptor = saved
        captureDescriptor = capture
    }

    /// Restores fd 2 and returns what was written to it meanwhile.
    consuming func finish() -> String {
        fflush(nil)
        _ = SystemCall.retrying("dup2") { dup2(savedDescriptor, 2) }
        close(savedDescriptor)
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var offset: off_t = 0
        while bytes.count < 65_536 {
            let count = buffer.withUnsafeMutableBytes { raw in
                SystemCall.retrying("pread") { pread(captureDescriptor, raw.baseAddress, raw.count, offset) }
            }
            if count <= 0 { break }
            bytes += buffer[0..<count]
            offset += off_t(count)
        }
        close(captureDescriptor)
        discard self
        return String(decoding: bytes, as: UTF8.self)
    }

    deinit {
        fflush(nil)
        _ = SystemCall.retrying("dup2") { dup2(savedDescriptor, 2) }
        close(savedDescriptor)
        close(captureDescriptor)
    }
}
