// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc

/// A system call in the test harness failed.
public struct PseudoTerminalError: Error, CustomStringConvertible {
    public let call: String
    public let errno: Int32
    public var description: String { "\(call) failed: \(String(cString: strerror(errno)))" }

    init(_ call: String) {
        self.init(call, errno: Glibc.errno)
    }

    /// For a call that returns its error (posix_spawn) rather than setting errno.
    init(_ call: String, errno: Int32) {
        self.call = call
        self.errno = errno
    }
}

/// A fresh pseudo-terminal pair, as a user's terminal looks: cooked, echo on (whatever the kernel
/// gives a new pty). Tests drive the master side; programs under test get the slave.
///
/// Both descriptors are opened O_CLOEXEC atomically (via /dev/ptmx rather than openpty), so a
/// child spawned by a test running in parallel never inherits them.
public final class PseudoTerminal {
    /// The side a test types into and reads the screen from.
    public let master: Int32
    /// The terminal side, kept open by the harness for `slaveAttributes()` (opened O_NOCTTY).
    public let slave: Int32
    /// The slave's path, e.g. /dev/pts/7.
    public let slaveName: String

    // From <asm-generic/ioctls.h> (x86_64, aarch64): function-like macros Swift cannot import.
    private static let setLock = UInt(0x4004_5431)  // TIOCSPTLCK
    private static let getNumber = UInt(0x8004_5430)  // TIOCGPTN

    /// Opens a new pair with the given window size.
    public init(columns: Int = 80, rows: Int = 24) throws(PseudoTerminalError) {
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard master >= 0 else { throw PseudoTerminalError("open /dev/ptmx") }
        var unlocked: Int32 = 0
        var number: UInt32 = 0
        guard ioctl(master, Self.setLock, &unlocked) == 0, ioctl(master, Self.getNumber, &number) == 0 else {
            let error = PseudoTerminalError("ioctl TIOCSPTLCK/TIOCGPTN")
            close(master)
            throw error
        }
        let name = "/dev/pts/\(number)"
        let slave = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard slave >= 0 else {
            let error = PseudoTerminalError("open \(name)")
            close(master)
            throw error
        }
        self.master = master
        self.slave = slave
        self.slaveName = name
        resize(columns: columns, rows: rows)
    }

    deinit {
        close(master)
        close(slave)
    }

    /// Sets the window size (TIOCSWINSZ); the kernel sends SIGWINCH to the foreground process group.
    public func resize(columns: Int, rows: Int) {
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
    }

    /// The slave's current attributes, to compare before and after a program ran.
    public func slaveAttributes() -> termios {
        var attributes = termios()
        _ = tcgetattr(slave, &attributes)
        return attributes
    }

    /// Writes all of `bytes` to the master (what a user types), blocking as needed.
    public func typeOnMaster(_ bytes: [UInt8]) {
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
            if count > 0 { written += count } else if errno != EINTR && errno != EAGAIN { return }
        }
    }

    /// Reads what the slave side wrote until `predicate` holds for all of it or `deadline` passes.
    /// Returns everything read.
    public func readMaster(
        until predicate: ([UInt8]) -> Bool, deadline: Duration
    ) -> [UInt8] {
        var collected: [UInt8] = []
        let clock = ContinuousClock()
        let end = clock.now.advanced(by: deadline)
        while !predicate(collected) {
            let left = clock.now.duration(to: end)
            if left <= .zero { break }
            var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, pollMilliseconds(left))
            if ready <= 0 { continue }
            collected += readAvailable(from: master)
        }
        return collected
    }
}

/// `left` rounded up to whole milliseconds, for poll.
func pollMilliseconds(_ left: Duration) -> Int32 {
    if left <= .zero { return 0 }
    let (seconds, attoseconds) = left.components
    return Int32(clamping: seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
}

/// Bytes now readable on `descriptor` (which poll reported ready), [] at end of file or on error.
func readAvailable(from descriptor: Int32) -> [UInt8] {
    var buffer = [UInt8](repeating: 0, count: 65536)
    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    return count > 0 ? Array(buffer[0..<count]) : []
}

extension termios {
    /// The struct's bytes, for comparing two snapshots exactly.
    public var bytes: [UInt8] {
        withUnsafeBytes(of: self) { Array($0) }
    }
}
