// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptCore
import OTCPromptSystem

extension AskPost {
    /// Removes the questions in `directory` that a poster of otc-prompt's left behind when it went without
    /// withdrawing them (killed with SIGKILL, a crash), with their sockets, so that they do not pile up until the
    /// next boot. Agents skip them already; nobody could receive their answer.
    ///
    /// Only what a poster provably made is removed (`ProcessLiveness`): a regular file of this user's named as
    /// `AskPost` names its files (`ask.` and 16 hex digits), whose socket is the `sck.` of the same name, marked
    /// with its poster's PID namespace, PID and start time, in this PID namespace, whose process is gone. A poster in
    /// a container that shares the runtime directory sees another namespace's requests and leaves them: their PID
    /// means nothing here. systemd's requests (no mark), another user's, a link, and anything else are left alone.
    /// The corresponding C calls are `opendir`, `readdir`, `open(O_NOFOLLOW)`, `fstat`, `read`, `lstat` and `unlink`.
    /// - Returns: how many questions were removed.
    @discardableResult
    public static func removeAbandoned(in directory: String) -> Int {
        guard let stream = opendir(directory) else { return 0 }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if isPostedName(name, prefix: "ask.") { names.append(name) }
        }
        closedir(stream)
        var removed = 0
        for name in names {
            let path = directory + "/" + name
            let socket = directory + "/sck." + name.dropFirst(4)
            guard let file = ownFile(path), file.socket == socket, let poster = file.poster,
                ProcessLiveness.judge(pid: file.pid, mark: poster) == .gone
            else { continue }
            if (try? FileTrust.socket().check(path: socket)) != nil { _ = unlink(socket) }
            _ = unlink(path)
            removed += 1
        }
        return removed
    }

    /// Whether `name` is `prefix` and 16 lowercase hex digits: a name `AskPost` chose.
    static func isPostedName(_ name: String, prefix: String) -> Bool {
        guard name.hasPrefix(prefix) else { return false }
        let digits = name.utf8.dropFirst(prefix.utf8.count)
        let isHex = { (byte: UInt8) in (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte) }
        return digits.count == 16 && digits.allSatisfy(isHex)
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
}
