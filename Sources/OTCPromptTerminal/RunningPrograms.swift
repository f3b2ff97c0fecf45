// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc

/// What runs and what is installed, for `--speech auto` and `--doctor`: read from /proc, /sys and PATH,
/// never by starting anything.
public enum RunningPrograms {
    /// The command names (`/proc/PID/comm`) of every process this user can see. A script such as
    /// /usr/bin/fenrir or /usr/bin/orca shows under its own name.
    /// The corresponding C calls are `opendir`, `readdir`, `open` and `read`.
    public static func names() -> Set<String> {
        guard let directory = opendir("/proc") else { return [] }
        defer { closedir(directory) }
        var names: Set<String> = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard !name.isEmpty, name.allSatisfy(\.isNumber) else { continue }
            let descriptor = open("/proc/\(name)/comm", O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 32)
            let count = read(descriptor, &buffer, buffer.count)
            close(descriptor)
            if count > 0 {
                names.insert(String(decoding: buffer[..<count], as: UTF8.self).trimmingNewline)
            }
        }
        return names
    }

    /// Whether `path` exists (a /sys entry such as /sys/accessibility/speakup). The corresponding C call is `access`.
    public static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// Whether `program` is an executable file in one of `searchPath`'s directories (PATH).
    /// The corresponding C call is `access(X_OK)`.
    public static func isInstalled(_ program: String, searchPath: String?) -> Bool {
        let directories = (searchPath ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        return directories.contains { access("\($0)/\(program)", X_OK) == 0 }
    }
}

extension String {
    fileprivate var trimmingNewline: String {
        var text = self
        while text.last == "\n" { text.removeLast() }
        return text
    }
}
