// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptCore
import OTCPromptSystem

/// Every process on the machine as /proc describes it (parent, session, terminal, real uid, name), for
/// finding the login behind a terminal and the screen readers a user runs. Read, never changed.
public enum ProcessTable {
    /// One record per process that could be read; a process that ends meanwhile is left out.
    /// The corresponding C calls are `opendir`, `readdir`, `open` and `read`.
    public static func read() -> [ProcessRecord] {
        processIDs().compactMap { record(pid: $0) }
    }

    /// The id of every process /proc lists (its numeric entries); none when /proc cannot be read.
    /// The corresponding C calls are `opendir` and `readdir`.
    static func processIDs() -> [Int32] {
        guard let directory = opendir("/proc") else { return [] }
        defer { closedir(directory) }
        var ids: [Int32] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if let pid = Int32(name) { ids.append(pid) }
        }
        return ids
    }

    /// The process `pid`, nil when it has gone or cannot be read.
    public static func record(pid: Int32) -> ProcessRecord? {
        guard let stat = contents(of: "/proc/\(pid)/stat"), let status = contents(of: "/proc/\(pid)/status")
        else { return nil }
        return parse(pid: pid, stat: stat, status: status)
    }

    static func parse(pid: Int32, stat: String, status: String) -> ProcessRecord? {
        parse(pid: pid, stat: Array(stat.utf8), status: Array(status.utf8))
    }

    /// `/proc/PID/stat` (the name is in parentheses and may hold spaces and parentheses: the fields
    /// start after the last ")") and the real uid from `/proc/PID/status`. Bytes, not strings: a
    /// pinentry reads every process's.
    static func parse(pid: Int32, stat: [UInt8], status: [UInt8]) -> ProcessRecord? {
        guard let open = stat.firstIndex(of: UInt8(ascii: "(")), let close = stat.lastIndex(of: UInt8(ascii: ")"))
        else { return nil }
        let name = String(decoding: stat[(open + 1)..<close], as: UTF8.self)
        // state ppid pgrp session tty_nr …
        let fields = stat[(close + 1)...].split(separator: UInt8(ascii: " "), maxSplits: 6)
        guard fields.count > 4, let parent = number(fields[1]), let session = number(fields[3]),
            let terminal = number(fields[4]), let uid = realUID(status)
        else { return nil }
        return ProcessRecord(
            pid: pid, parent: Int32(truncatingIfNeeded: parent), session: Int32(truncatingIfNeeded: session),
            terminal: UInt64(UInt32(truncatingIfNeeded: terminal)), uid: UInt32(truncatingIfNeeded: uid), name: name)
    }

    /// The first number of the "Uid:" line (real, effective, saved, filesystem).
    private static func realUID(_ status: [UInt8]) -> Int64? {
        let key = Array("\nUid:".utf8)
        guard status.count > key.count else { return nil }
        for start in 0...(status.count - key.count) where status[start] == key[0] {
            guard status[start..<(start + key.count)].elementsEqual(key) else { continue }
            let rest = status[(start + key.count)...].drop { $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: " ") }
            return number(rest.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        }
        return nil
    }

    private static func number(_ bytes: ArraySlice<UInt8>) -> Int64? {
        var value: Int64 = 0
        var negative = false
        var digits = 0
        for (index, byte) in bytes.enumerated() {
            if index == 0, byte == UInt8(ascii: "-") {
                negative = true
                continue
            }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 18 else { return nil }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            digits += 1
        }
        return digits == 0 ? nil : (negative ? -value : value)
    }

    static func contents(of path: String) -> [UInt8]? {
        let descriptor = SystemCall.retrying("open") { open(path, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 2048)
        var length = 0
        while true {
            if length == bytes.count { bytes += [UInt8](repeating: 0, count: bytes.count) }
            let count = bytes.withUnsafeMutableBytes { raw in
                SystemCall.retrying("read") { Glibc.read(descriptor, raw.baseAddress! + length, raw.count - length) }
            }
            guard count > 0 else { break }
            length += count
        }
        return length == 0 ? nil : Array(bytes[..<length])
    }
}
