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

/// Starts a detached thread running `body`: the door's one thread starter. Speech cannot go on without
/// its threads, so failing to start one stops the process, as it always did.
func startThread(_ body: @escaping @Sendable () -> Void) {
    do {
        try DetachedThread.start(body)
    } catch {
        preconditionFailure("\(error)")
    }
}
