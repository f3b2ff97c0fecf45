// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptCore

/// Every process on the machine as /proc describes it (parent, session, terminal, real uid, name), for
/// finding the login behind a terminal and the screen readers a user runs. Read, never changed.
public enum ProcessTable {
    /// One record per process that could be read; a process that ends meanwhile is left out.
    /// The corresponding C calls are `opendir`, `readdir`, `open` and `read`.
    public static func read() -> [ProcessRecord] {
        guard let directory = opendir("/proc") else { return [] }
        defer { closedir(directory) }
        var records: [ProcessRecord] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let pid = Int32(name), let record = record(pid: pid) else { continue }
            records.append(record)
        }
        return records
    }

    /// The process `pid`, nil when it has gone or cannot be read.
    public static func record(pid: Int32) -> ProcessRecord? {
        guard let stat = contents(of: "/proc/\(pid)/stat"), let status = contents(of: "/proc/\(pid)/status")
        else { return nil }
        return parse(pid: pid, stat: stat, status: status)
    }

    /// `/proc/PID/stat` (the name is in parentheses and may hold spaces and parentheses: the fields
    /// start after the last ")") and the real uid from `/proc/PID/status`.
    static func parse(pid: Int32, stat: String, status: String) -> ProcessRecord? {
        guard let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { return nil }
        let name = String(stat[stat.index(after: open)..<close])
        // state ppid pgrp session tty_nr …
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 4, let parent = Int32(fields[1]), let session = Int32(fields[3]),
            let terminal = Int64(fields[4])
        else { return nil }
        let uidLine = status.split(separator: "\n").first { $0.hasPrefix("Uid:") }
        guard
            let uid = uidLine?.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap({
                UInt32($0)
            })
        else { return nil }
        return ProcessRecord(
            pid: pid, parent: parent, session: session, terminal: UInt64(UInt32(truncatingIfNeeded: terminal)),
            uid: uid, name: name)
    }

    private static func contents(of path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = Glibc.read(descriptor, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[..<count]
        }
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }
}
