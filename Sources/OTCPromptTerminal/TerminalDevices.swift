// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptCore
import OTCPromptHost
import OTCPromptSystem

/// Terminal devices by path or number: which one the prompt uses, and, for a tmux or screen client's,
/// when it last took input (the kernel sets a tty's access time when it is read from).
public enum TerminalDevices {
    /// The terminal at `path` (the pinentry's `ttyname`; /dev/tty is the controlling terminal's own name), nil
    /// when it is not a character device. The corresponding C call is `stat`.
    public static func device(path: String) -> TerminalDevice? {
        if path == "/dev/tty" { return controlling() }
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFCHR else { return nil }
        return TerminalDevice(device: UInt64(info.st_rdev), path: path, lastInput: Int64(info.st_atim.tv_sec))
    }

    /// The controlling terminal of this process (its `tty_nr`, by name), nil when it has none.
    public static func controlling() -> TerminalDevice? {
        guard let number = ProcessTable.record(pid: getpid())?.terminal, number != 0 else { return nil }
        return named(number: number)
    }

    /// The terminal whose device number is `number` (a process's `tty_nr`): /dev/pts/N or /dev/ttyN,
    /// nil for anything else (a serial line, a console that cannot be named).
    public static func named(number: UInt64) -> TerminalDevice? {
        let major = (number >> 8) & 0xfff
        let minor = (number & 0xff) | ((number >> 12) & 0xfff00)
        let path: String
        switch major {
        case 136: path = "/dev/pts/\(minor)"
        case 4 where minor < 64: path = "/dev/tty\(minor)"
        default: return nil
        }
        guard let found = device(path: path), found.device == number else { return nil }
        return found
    }
}

extension TerminalDevices {
    /// The terminal open on `descriptor`, nil when it is not one. The corresponding C call is `ttyname_r`.
    public static func device(descriptor: Int32) -> TerminalDevice? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard ttyname_r(descriptor, &buffer, buffer.count) == 0 else { return nil }
        return device(path: String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
}

/// Where the person typing on a terminal is (`SessionLocation`), read live from /proc and the terminal.
public enum LoginSession {
    /// - Parameter descriptor: the terminal the prompt reads from, nil for this process's controlling terminal.
    /// The corresponding C calls are `tcgetsid`, `ttyname_r`, `stat`, and reads of /proc.
    public static func locate(descriptor: Int32?) -> SessionLocation {
        let terminal: TerminalDevice? =
            if let descriptor { TerminalDevices.device(descriptor: descriptor) } else { TerminalDevices.controlling() }
        // Our own controlling terminal names its session at once: nothing else needs reading.
        let session = descriptor.map { tcgetsid($0) } ?? getsid(0)
        return SessionLocation.locate(
            terminal: terminal, sessionLeader: terminal != nil && session > 0 ? session : nil, processes: live(),
            terminals: TerminalDevices.named)
    }

    /// The terminal at `path` (a pinentry's `ttyname`), found through its holders in /proc.
    public static func locate(path: String) -> SessionLocation {
        SessionLocation.locate(
            terminal: TerminalDevices.device(path: path), processes: live(), terminals: TerminalDevices.named)
    }

    /// The live table: one process read when asked, the whole table read once, on first need; a tmux
    /// process's command line and environment only when its server is in question.
    private static func live() -> SessionLocation.Processes {
        final class Cache: @unchecked Sendable { var table: [ProcessRecord]? }
        let cache = Cache()
        return SessionLocation.Processes(
            byPID: { ProcessTable.record(pid: $0) },
            all: {
                if let table = cache.table { return table }
                let table = ProcessTable.read()
                cache.table = table
                return table
            },
            arguments: { ProcessTable.arguments(pid: $0) },
            variable: { ProcessTable.variable($1, pid: $0) })
    }
}
