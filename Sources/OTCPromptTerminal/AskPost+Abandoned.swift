// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptCore
import OTCPromptSystem

extension AskPost {
    /// Removes the questions in `directory` whose poster is gone without withdrawing them (killed with SIGKILL, a
    /// crash): the user's own `ask.*` files whose `PID=` no longer runs, with their sockets, so that they do not
    /// pile up until the next boot. Agents skip them already; nobody could receive their answer. A file of another
    /// user's, a link, one that is no ask file, or one whose process still runs is left alone.
    /// The corresponding C calls are `opendir`, `readdir`, `open(O_NOFOLLOW)`, `fstat`, `read`, `kill` and `unlink`.
    /// - Returns: how many questions were removed.
    @discardableResult
    public static func removeAbandoned(in directory: String) -> Int {
        guard let stream = opendir(directory) else { return 0 }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasPrefix("ask.") { names.append(name) }
        }
        closedir(stream)
        var removed = 0
        for name in names {
            let path = directory + "/" + name
            guard let file = ownFile(path), let pid = file.pid, !isRunning(pid) else { continue }
            let socketName = file.socket.split(separator: "/").last.map(String.init) ?? ""
            if file.socket == directory + "/" + socketName, socketName.hasPrefix("sck.") { _ = unlink(file.socket) }
            _ = unlink(path)
            removed += 1
        }
        return removed
    }

    /// The ask file at `path` when it is a regular file of this user's, not a link, that parses.
    private static func ownFile(_ path: String) -> AskFile? {
        let descriptor = SystemCall.retrying("open") {
            Glibc.open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        }
        guard descriptor >= 0 else { return nil }
        defer { _ = Glibc.close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (try? FileTrust.ownFile().check(FileTrust.Status(status))) != nil,
            status.st_size <= AskFile.maximumSize
        else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        let count = bytes.withUnsafeMutableBytes { raw in
            SystemCall.retrying("read") { Glibc.read(descriptor, raw.baseAddress, raw.count) }
        }
        guard count >= 0 else { return nil }
        return try? AskFile.parse(bytes[..<count])
    }

    /// Whether `pid` runs (a process of another user's too: EPERM says it exists).
    private static func isRunning(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || Errno.current != Errno(rawValue: ESRCH)
    }
}
