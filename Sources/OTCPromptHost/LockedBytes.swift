// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptSystem

/// Memory for a secret on its way out (the Assuan "D" lines, stdout's bytes): kept out of swap
/// where RLIMIT_MEMLOCK allows (`isLocked` false otherwise: still wiped, only swappable), and
/// overwritten before it is given back.
public final class LockedBytes {
    public let bytes: UnsafeMutableBufferPointer<UInt8>
    /// Whether `mlock` succeeded.
    public let isLocked: Bool

    /// The corresponding C call is `mlock`.
    public init(count: Int) {
        bytes = .allocate(capacity: max(1, count))
        bytes.initialize(repeating: 0)
        isLocked = mlock(bytes.baseAddress!, bytes.count) == 0
    }

    deinit {
        wipe()
        if isLocked { _ = munlock(bytes.baseAddress!, bytes.count) }
        bytes.deallocate()
    }

    /// Overwrites every byte; the compiler may not drop it as a dead store. The corresponding C
    /// call is `explicit_bzero`.
    public func wipe() {
        explicit_bzero(bytes.baseAddress!, bytes.count)
    }
}
