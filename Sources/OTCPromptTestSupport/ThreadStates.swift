// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Glibc

/// What each thread of a process is doing now, for a test's failure message when a program seems stuck: its name,
/// state, the kernel function it sleeps in, the system call it is in, its blocked and pending signals and the top of
/// its kernel stack (/proc/PID/task/TID/{comm,stat,wchan,syscall,status,stack}); the process's own pending, caught
/// and ignored signals; and the machine's load and pressure, which tell a stuck program from a starved one.
public enum ThreadStates {
    public static func describe(_ pid: pid_t) -> String {
        guard let tasks = opendir("/proc/\(pid)/task") else { return "no /proc/\(pid): it has ended" }
        defer { closedir(tasks) }
        var lines: [String] = []
        while let entry = readdir(tasks) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let tid = Int32(name) else { continue }
            let base = "/proc/\(pid)/task/\(tid)/"
            let stat = read(base + "stat")
            let state = stat.split(separator: ")").last.map { String($0.dropFirst().prefix(1)) } ?? "?"
            let signals = fields(["SigBlk", "SigPnd"], of: read(base + "status"))
            // The kernel stack is root's to read ("?" otherwise); its top frames say where a sleep began.
            let frames = read(base + "stack").split(separator: "\n").prefix(4).compactMap {
                $0.split(separator: " ").dropFirst().first.map(String.init)
            }
            let waits = "in \(read(base + "wchan")), syscall \(read(base + "syscall"))"
            let stack = frames.isEmpty ? "" : ", stack \(frames.joined(separator: " < "))"
            lines.append("\(tid) \(read(base + "comm")) state \(state), \(waits), \(signals)\(stack)")
        }
        let process = fields(["ShdPnd", "SigCgt", "SigIgn"], of: read("/proc/\(pid)/status"))
        let pressure = ["cpu", "memory", "io"].map { kind in
            let some = read("/proc/pressure/\(kind)").split(separator: "\n").first.map(String.init) ?? "?"
            return "\(kind) \(some)"
        }
        return lines.sorted().joined(separator: "; ") + "; process \(process); load \(read("/proc/loadavg"))"
            + "; pressure " + pressure.joined(separator: ", ")
    }

    /// `describe` for each process named `name` (its /proc comm) whose real uid is `uid`: a program that a client
    /// started where the test cannot see its pid (over ssh, as an askpass).
    public static func describe(programsNamed name: String, uid: uid_t) -> String {
        let pids = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap(Int32.init)
        let found = pids.filter { pid in
            let uidLine = read("/proc/\(pid)/status").split(separator: "\n").first { $0.hasPrefix("Uid:") }
            let real = uidLine?.split(whereSeparator: { $0 == "\t" || $0 == " " }).dropFirst().first
            return read("/proc/\(pid)/comm") == name && real.flatMap { uid_t($0) } == uid
        }
        guard !found.isEmpty else { return "no \(name) of uid \(uid) runs" }
        return found.map { "\(name) \($0): \(describe($0))" }.joined(separator: " | ")
    }

    /// Every thread's backtrace as gdb gives it (attached for a moment, at most `deadline`), for a process that is
    /// stuck; nil when gdb is not installed or did not answer in time.
    public static func backtraces(_ pid: pid_t, deadline: Duration = .seconds(30)) -> String? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/gdb") else { return nil }
        let gdb = Process()
        gdb.executableURL = URL(fileURLWithPath: "/usr/bin/gdb")
        gdb.arguments = ["-nx", "-batch", "-p", "\(pid)", "-ex", "thread apply all bt"]
        // Into a file, not a pipe: a pipe read only at the end would fill, and hold gdb, with many threads' frames.
        let path = NSTemporaryDirectory() + "/otc-gdb-\(UUID().uuidString.prefix(8))"
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let output = FileHandle(forWritingAtPath: path)
        else { return nil }
        defer {
            try? output.close()
            unlink(path)
        }
        gdb.standardOutput = output
        gdb.standardError = output
        gdb.standardInput = FileHandle.nullDevice
        guard (try? gdb.run()) != nil else { return nil }
        let clock = ContinuousClock()
        let end = clock.now + deadline
        while gdb.isRunning && clock.now < end { usleep(50_000) }
        if gdb.isRunning {
            kill(gdb.processIdentifier, SIGKILL)
            gdb.waitUntilExit()
            return nil
        }
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { $0.hasPrefix("Thread ") || $0.hasPrefix("#") }.joined(
            separator: "\n")
    }

    /// "SigBlk 0000000000000000, SigPnd …": the named lines of a /proc status file.
    private static func fields(_ names: [String], of status: String) -> String {
        let lines = status.split(separator: "\n")
        return names.map { name in
            let value = lines.first { $0.hasPrefix(name + ":") }.map { $0.dropFirst(name.count + 1) } ?? "?"
            return "\(name) \(value.trimmingCharacters(in: .whitespaces))"
        }.joined(separator: ", ")
    }

    private static func read(_ path: String) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return "?" }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 65_536 {
            let count = Glibc.read(descriptor, &buffer, buffer.count)
            guard count > 0 else { break }
            bytes += buffer[..<count]
        }
        return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

extension PseudoTerminalProcess {
    /// Where the child's threads wait, and their backtraces when gdb is installed: a failure message's last words on
    /// a child that seems stuck (evaluated only when the expectation fails).
    public var stuckReport: String {
        "threads: \(ThreadStates.describe(processID)); backtraces: \(ThreadStates.backtraces(processID) ?? "none")"
    }
}
