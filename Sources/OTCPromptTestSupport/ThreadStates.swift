// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Glibc

/// What each thread of a process is doing now, for a test's failure message when a program seems stuck: its name,
/// state, the kernel function it sleeps in and the system call it is in (/proc/PID/task/TID/{comm,stat,wchan,syscall}).
public enum ThreadStates {
    public static func describe(_ pid: pid_t) -> String {
        guard let tasks = opendir("/proc/\(pid)/task") else { return "no /proc/\(pid): it has ended" }
        defer { closedir(tasks) }
        var lines: [String] = []
        while let entry = readdir(tasks) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let tid = Int32(name) else { continue }
            let base = "/proc/\(pid)/task/\(tid)/"
            let stat = read(base + "stat")
            let state = stat.split(separator: ")").last.map { String($0.dropFirst().prefix(1)) } ?? "?"
            lines.append(
                "\(tid) \(read(base + "comm")) state \(state), in \(read(base + "wchan")), syscall \(read(base + "syscall"))")
        }
        return lines.sorted().joined(separator: "; ")
    }

    private static func read(_ path: String) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return "?" }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = Glibc.read(descriptor, &buffer, buffer.count)
        guard count > 0 else { return "" }
        return String(decoding: buffer[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
