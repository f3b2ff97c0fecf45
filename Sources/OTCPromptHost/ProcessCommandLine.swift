// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc

/// A process's command line and one variable of its environment, which tell which tmux server a tmux
/// process talks to. Read, never changed.
extension ProcessTable {
    /// The command line of `pid` (`/proc/PID/cmdline`), nil when it has gone, cannot be read, or is empty
    /// (a kernel thread). The corresponding C calls are `open` and `read`.
    public static func arguments(pid: Int32) -> [String]? {
        guard let bytes = contents(of: "/proc/\(pid)/cmdline") else { return nil }
        let trimmed = bytes.last == 0 ? bytes.dropLast() : bytes[...]
        return trimmed.split(separator: 0, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
    }

    /// The value of `name` in the environment `pid` started with (`/proc/PID/environ`: the owner's and
    /// root's to read), nil when unset or unreadable. Only that one value is kept: the rest of another
    /// program's environment may hold secrets, so the bytes read are wiped before they are freed.
    public static func variable(_ name: String, pid: Int32) -> String? {
        guard var bytes = contents(of: "/proc/\(pid)/environ") else { return nil }
        defer { bytes.withUnsafeMutableBytes { if let base = $0.baseAddress { explicit_bzero(base, $0.count) } } }
        let key = Array(name.utf8) + [UInt8(ascii: "=")]
        for entry in bytes.split(separator: 0) where entry.starts(with: key) {
            return String(decoding: entry.dropFirst(key.count), as: UTF8.self)
        }
        return nil
    }
}
