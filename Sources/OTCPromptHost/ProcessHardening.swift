// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptSystem

/// Keeps the code out of places it could leak to after the fact.
public enum ProcessHardening {
    private typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
    private static let setDumpable: Int32 = 4  // PR_SET_DUMPABLE, not exported to Swift

    /// No core file, and no ptrace or /proc/PID/mem access by other processes of the same user.
    ///
    /// prctl is variadic in C, which Swift does not import; it is looked up with dlsym and called
    /// with five word-sized arguments, as the Linux ABIs pass variadic integers in registers anyway.
    /// The corresponding C calls are `prctl(PR_SET_DUMPABLE, 0)` and `setrlimit(RLIMIT_CORE, 0)`.
    public static func disableCoreDumps() {
        if let symbol = dlsym(nil, "prctl") {
            let prctl = unsafeBitCast(symbol, to: Prctl.self)
            _ = prctl(setDumpable, 0, 0, 0, 0)
        }
        var none = rlimit(rlim_cur: 0, rlim_max: 0)
        _ = setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &none)
    }

    /// Keeps the pages holding `buffer` out of swap; false where the memory-lock limit forbids it.
    /// The corresponding C call is `mlock`.
    @discardableResult
    public static func lockInMemory(_ buffer: UnsafeRawBufferPointer) -> Bool {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return true }
        return mlock(base, buffer.count) == 0
    }

    /// A reader of stdout that went away (`otc-prompt | true`) gives EPIPE, reported in one line,
    /// instead of killing the process silently. The corresponding C call is `signal(SIGPIPE, SIG_IGN)`.
    public static func ignoreBrokenPipe() {
        _ = signal(SIGPIPE, SIG_IGN)
    }

    /// A write past the file-size limit (`ulimit -f`, limits.conf's `fsize`, systemd's `LimitFSIZE=`) fails with
    /// EFBIG, said as a full disk's ENOSPC is, instead of SIGXFSZ killing the prompt with the terminal raw.
    /// The corresponding C call is `signal(SIGXFSZ, SIG_IGN)`.
    public static func ignoreFileSizeLimit() {
        _ = signal(SIGXFSZ, SIG_IGN)
    }

    /// Fills closed descriptors 0, 1 and 2 with /dev/null opened read-only.
    ///
    /// Otherwise /dev/tty or the speech log could be opened as fd 1 and receive the code; read-only,
    /// a write to a closed stdout still fails (EBADF) and is reported. Call it first thing.
    public static func reserveStandardDescriptors() {
        for descriptor in Int32(0)...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            let opened = open("/dev/null", O_RDONLY)
            if opened >= 0 && opened != descriptor {
                _ = dup2(opened, descriptor)
                _ = close(opened)
            }
        }
    }
}
