// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc

/// The door to the operating system: every module's syscalls go through `retrying` (or `call`, which
/// throws), so there is one EINTR rule, one error type and one place where tests force an errno.
///
/// The EINTR rule: a call that fails with EINTR is made again, at once and as often as it is interrupted.
/// No caller sees EINTR; one that must wake for a signal watches the signal self-pipe instead.
/// Modelled on swift-system's `valueOrErrno` and swift-nio's `syscall`.
public enum SystemCall {
    /// Runs `body`, retrying EINTR; returns its result, or -1 with errno set. `name` is the C function's,
    /// for the mock and for errors.
    @inlinable @inline(__always)
    public static func retrying<Result: FixedWidthInteger>(_ name: StaticString, _ body: () -> Result) -> Result {
        while true {
            #if DEBUG
                if let forced = SystemCallMock.takeForcedErrno(for: name) {
                    Glibc.errno = forced.rawValue
                    if forced == .interrupted { continue }
                    return -1
                }
            #endif
            let result = body()
            if result == -1 && Glibc.errno == EINTR { continue }
            return result
        }
    }

    /// `retrying`, with a failure (-1) thrown as the door's error: the errno and `name`.
    @inlinable @inline(__always)
    public static func call<Result: FixedWidthInteger>(
        _ name: StaticString, _ body: () -> Result
    ) throws(SystemCallError) -> Result {
        let result = retrying(name, body)
        guard result != -1 else { throw SystemCallError(.current, call: "\(name)") }
        return result
    }

    /// For a pthread-style call that answers its error instead of setting errno (0 on success).
    @inlinable @inline(__always)
    public static func status(_ name: StaticString, _ body: () -> Int32) throws(SystemCallError) {
        #if DEBUG
            if let forced = SystemCallMock.takeForcedErrno(for: name) { throw SystemCallError(forced, call: "\(name)") }
        #endif
        let status = body()
        guard status == 0 else { throw SystemCallError(Errno(rawValue: status), call: "\(name)") }
    }
}
