// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptSystem

extension ProcessTable {
    /// The effective uid of `pid` (the second number of /proc/PID/status's "Uid:" line), nil when unreadable.
    /// The corresponding C calls are `open` and `read`.
    public static func effectiveUID(pid: Int32) -> UInt32? {
        guard let bytes = contents(of: "/proc/\(pid)/status") else { return nil }
        let status = String(decoding: bytes, as: UTF8.self)
        for line in status.split(separator: "\n") where line.hasPrefix("Uid:") {
            let numbers = line.dropFirst(4).split(whereSeparator: { $0 == "\t" || $0 == " " })
            return numbers.count > 1 ? UInt32(numbers[1]) : nil
        }
        return nil
    }

    /// The file `pid` runs (/proc/PID/exe), nil when the kernel does not show it (a setuid program's, to its user).
    /// The corresponding C function is `readlink`.
    public static func executable(pid: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = SystemCall.retrying("readlink") { readlink("/proc/\(pid)/exe", &buffer, buffer.count - 1) }
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
