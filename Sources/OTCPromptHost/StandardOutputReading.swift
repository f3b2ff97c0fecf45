// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptCore

/// Who reads fd 1 (`StandardOutputReader`), from its type and the parent's descriptors.
public enum StandardOutputReading {
    /// A terminal; else a pipe or socket is the caller's unless the parent's descriptors are readable and none of
    /// them is that pipe; anything else (a file, /dev/null) is no caller's. The corresponding C calls are `isatty`,
    /// `fstat`, `getppid`, `opendir`, `readdir` and `readlink`.
    public static var current: StandardOutputReader {
        if isatty(STDOUT_FILENO) == 1 { return .terminal }
        var status = stat()
        guard fstat(STDOUT_FILENO, &status) == 0 else { return .mayBeTheCaller }
        let type = status.st_mode & S_IFMT
        if type == S_IFSOCK { return .mayBeTheCaller }
        guard type == S_IFIFO else { return .notTheCaller }
        return parentHolds(link: "pipe:[\(status.st_ino)]") ?? true ? .mayBeTheCaller : .notTheCaller
    }

    /// `first` (what `current` said), looked at again every few milliseconds for at most `within` while it is
    /// `.mayBeTheCaller`: a shell's pipeline (`otc-prompt --version | cat`) holds the pipe's read end only until it
    /// has started the next command, which a loaded machine may delay past this program's start; a caller that
    /// reads the answer itself (sudo, ssh) holds it until it has read it. The corresponding C function is
    /// `nanosleep`.
    public static func settled(_ first: StandardOutputReader, within: Duration) -> StandardOutputReader {
        guard first == .mayBeTheCaller else { return first }
        var now = first
        _ = Polling.until(within: within, every: .milliseconds(5)) {
            now = current
            return now != .mayBeTheCaller
        }
        return now
    }

    /// Whether a descriptor of the parent process is `link` (as /proc shows it); nil when they cannot be read (the
    /// parent is another user's, or /proc is not mounted).
    static func parentHolds(link: String) -> Bool? {
        let path = "/proc/\(getppid())/fd"
        guard let directory = opendir(path) else { return nil }
        defer { closedir(directory) }
        var buffer = [CChar](repeating: 0, count: 256)
        var readAny = false
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard Int32(name) != nil else { continue }
            let count = readlink(path + "/" + name, &buffer, buffer.count - 1)
            guard count > 0 else { continue }
            readAny = true
            let target = buffer[..<count].withUnsafeBufferPointer {
                String(decoding: UnsafeRawBufferPointer($0), as: UTF8.self)
            }
            if target == link { return true }
        }
        return readAny ? false : nil
    }
}
