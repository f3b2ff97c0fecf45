import OTCPromptSystem

#if canImport(Glibc)
    import Glibc
#endif

/// Tells the password agent that a voice which mostly waits has let its device go (`releaseAfterSilence`): one
/// byte on a pipe per release. The agent then renews itself without the voice's libraries (`AgentRenewal`).
public enum VoiceRelease {
    /// Readable once a voice has let go and `take()` has not been called since.
    public static var descriptor: Int32 { ends.read }

    /// Whether a voice let go since the last call; the pipe is emptied.
    public static func take() -> Bool {
        var byte: UInt8 = 0
        var released = false
        while SystemCall.retrying("read", { read(ends.read, &byte, 1) }) == 1 { released = true }
        return released
    }

    /// Whether a voice let go, without taking it (a relay's test, on its own thread). The corresponding C call is
    /// `poll`.
    public static var isPending: Bool {
        var descriptor = pollfd(fd: ends.read, events: Int16(POLLIN), revents: 0)
        return SystemCall.retrying("poll") { poll(&descriptor, 1, 0) } == 1
    }

    /// The agent's new image starts: a trace event (`renewed`) for the harnesses that wait for it.
    public static func traceRenewal() {
        SpeechTrace.shared?.record("renewed", generation: 0)
    }

    static func announce() {
        var byte: UInt8 = 1
        _ = SystemCall.retrying("write") { write(ends.write, &byte, 1) }
    }

    /// Made at the first use; never closed. Both ends close on exec and never block.
    private static let ends: (read: Int32, write: Int32) = {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return (-1, -1) }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        return (ends[0], ends[1])
    }()
}
