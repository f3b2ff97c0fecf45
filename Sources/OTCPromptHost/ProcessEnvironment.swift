// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptSystem

/// The process's environment as a value, so the configuration code that reads it stays pure.
public enum ProcessEnvironment {
    /// Every NAME=value of `environ`; the first occurrence of a name wins, as getenv does.
    public static var current: [String: String] {
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                let name = String(text[..<equals])
                if variables[name] == nil { variables[name] = String(text[text.index(after: equals)...]) }
            }
            entry += 1
        }
        return variables
    }
}

/// Who runs the prompt, from the password database: the name speech-dispatcher is told (as
/// libspeechd does, with g_get_user_name) and the home that `~` means when `$HOME` is unset.
public struct UserAccount: Equatable, Sendable {
    public var name: String
    public var homeDirectory: String

    public init(name: String, homeDirectory: String) {
        self.name = name
        self.homeDirectory = homeDirectory
    }

    /// The real uid: whose servers and screen readers count. The corresponding C function is `getuid`.
    public static var currentUID: UInt32 { getuid() }

    /// The real user's entry; "unknown" and "/" when there is none (a container's bare uid).
    /// The corresponding C function is `getpwuid_r`.
    public static var current: UserAccount {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        let status = getpwuid_r(getuid(), &entry, &buffer, buffer.count, &result)
        guard status == 0, result != nil else { return UserAccount(name: "unknown", homeDirectory: "/") }
        return UserAccount(name: String(cString: entry.pw_name), homeDirectory: String(cString: entry.pw_dir))
    }

    /// Whether the password database has an account named `name`. The corresponding C function is `getpwnam_r`.
    public static func exists(_ name: String) -> Bool {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        return getpwnam_r(name, &entry, &buffer, buffer.count, &result) == 0 && result != nil
    }

    /// "root", "user 1001 (bob)", or "user 1001" where the password database has no name for it: for messages.
    /// The corresponding C function is `getpwuid_r`.
    public static func describe(_ uid: UInt32) -> String {
        if uid == 0 { return "root" }
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return "user \(uid)" }
        return "user \(uid) (\(String(cString: entry.pw_name)))"
    }
}

/// What a pinentry reports about itself (GETINFO pid and ttyinfo).
public enum ProcessIdentity {
    /// The corresponding C call is `getpid`.
    public static var processID: Int32 { getpid() }

    /// "euid/egid". The corresponding C calls are `geteuid` and `getegid`.
    public static var userIDs: String { "\(geteuid())/\(getegid())" }

    /// A device's "mode/uid/gid", the mode in octal, as pinentry prints it; "?" when it cannot be read.
    /// The corresponding C call is `stat`.
    public static func deviceStatus(_ path: String) -> String {
        var status = stat()
        guard stat(path, &status) == 0 else { return "?" }
        return "\(String(status.st_mode, radix: 8))/\(status.st_uid)/\(status.st_gid)"
    }
}

/// The end of the process, with its exit status.
public enum ProcessExit {
    /// Ends the process with `status` (stdio flushed, atexit handlers run). The corresponding C function is `exit`.
    public static func exit(_ status: Int32) -> Never {
        Glibc.exit(status)
    }
}
