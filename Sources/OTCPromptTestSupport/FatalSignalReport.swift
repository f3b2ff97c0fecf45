// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc

/// Says on stderr which process sent the test process a signal that ends it, and then lets the signal end it.
///
/// `swift test` says nothing when the test process is killed: the run just stops, without its summary, and the
/// tests it was running cannot be told from the ones waiting. A fatal signal from outside (SIGTERM, SIGHUP, SIGINT,
/// SIGUSR1, SIGUSR2, SIGALRM) is reported here with the sender's pid and command line, as the kernel gives them.
/// SIGKILL cannot be caught: a run that ends without its summary and without this line was killed with it (or
/// called exit). Crashes (SIGSEGV, SIGILL, SIGABRT) are the Swift runtime's backtracer's.
///
/// The handler only makes system calls (`open`, `read`, `write`, `kill`) on a buffer on its stack: it may
/// interrupt any thread anywhere, malloc's lock held included.
public enum FatalSignalReport {
    /// The signals reported: those whose default action ends the process silently and which another process
    /// may send. SIGPIPE is left alone: the tests ignore it, as the program does.
    static let signals: [Int32] = [SIGTERM, SIGHUP, SIGINT, SIGUSR1, SIGUSR2, SIGALRM]

    /// Installs the reports, once; a signal whose disposition is not the default (a test's own handler, or
    /// ignored) is left as it is.
    public static func install() { _ = installed }

    private static let installed: Bool = {
        for signal in signals {
            var current = sigaction()
            guard sigaction(signal, nil, &current) == 0,
                unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == 0  // SIG_DFL
            else { continue }
            var action = sigaction()
            action.__sigaction_handler.sa_sigaction = { signal, info, _ in
                FatalSignalReport.report(signal, from: info?.pointee._sifields._kill.si_pid ?? 0)
                // SA_RESETHAND put the default back; the signal is blocked until the handler returns, and then
                // it ends the process as it would have.
                _ = kill(getpid(), signal)
            }
            action.sa_flags = SA_SIGINFO | Int32(bitPattern: UInt32(SA_RESETHAND)) | SA_RESTART
            sigemptyset(&action.sa_mask)
            _ = sigaction(signal, &action, nil)
        }
        return true
    }()

    /// "otc-prompt tests: the test process got signal 15 from pid 1234: /bin/sh -c ...", on stderr.
    static func report(_ signal: Int32, from sender: pid_t, to descriptor: Int32 = 2) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 512) { buffer in
            var length = 0
            func append(_ bytes: UnsafeRawBufferPointer) {
                for byte in bytes where length < buffer.count {
                    buffer[length] = byte
                    length += 1
                }
            }
            func append(_ text: StaticString) {
                append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
            }
            func append(_ number: Int32) {
                var value = Int64(number).magnitude
                var reversed: (UInt64, UInt64) = (0, 0)  // up to 16 digits, one a byte
                withUnsafeMutableBytes(of: &reversed) { raw in
                    var count = 0
                    repeat {
                        raw[count] = UInt8(ascii: "0") + UInt8(value % 10)
                        value /= 10
                        count += 1
                    } while value > 0 && count < raw.count
                    for index in stride(from: count - 1, through: 0, by: -1) where length < buffer.count {
                        buffer[length] = raw[index]
                        length += 1
                    }
                }
            }
            // The sender's /proc path, NUL-terminated, built where the line goes and then overwritten by it.
            append("/proc/")
            append(sender)
            append("/cmdline")
            buffer[length] = 0
            let file = open(UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self), O_RDONLY)
            length = 0
            append("otc-prompt tests: the test process got signal ")
            append(signal)
            append(" from pid ")
            append(sender)
            append(": ")
            let start = length
            if file >= 0 {
                let count = read(file, buffer.baseAddress! + start, buffer.count - 1 - start)
                close(file)
                length = start + max(count, 0)
                for index in start..<length where buffer[index] == 0 { buffer[index] = UInt8(ascii: " ") }
            }
            if length == start { append("?") }
            buffer[min(length, buffer.count - 1)] = UInt8(ascii: "\n")
            _ = write(descriptor, buffer.baseAddress, min(length + 1, buffer.count))
        }
    }
}
