import OTCPromptSystem

#if canImport(Glibc)
    import Glibc
#endif

extension ConditionLock {
    /// Waits for a broadcast or the monotonic `deadline` in nanoseconds, as the speech threads count their
    /// deadlines; the lock must be held. Returns false once the deadline has passed.
    @discardableResult
    func wait(until deadline: UInt64) -> Bool {
        wait(until: MonotonicInstant(nanoseconds: Int64(clamping: deadline)))
    }
}

/// Nanoseconds on the monotonic clock: the door's one clock, as the speech threads' deadlines count it.
@inline(__always)
func monotonicNanoseconds() -> UInt64 {
    UInt64(clamping: MonotonicInstant.now.nanoseconds)
}

/// Starts a detached thread running `body`: the door's one thread starter. A thread that cannot be had (a
/// session at its task limit, an address-space limit too small for a stack) is speech that cannot start: the
/// error says so and announcements fall back to text, never a trap with the terminal raw.
func startThread(_ body: @escaping @Sendable () -> Void) throws(SpeechError) {
    do {
        try DetachedThread.start(body)
    } catch {
        throw .noThread(error.errno.description)
    }
}
