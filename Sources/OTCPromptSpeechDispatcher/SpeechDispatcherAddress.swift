// SPDX-License-Identifier: GPL-3.0-or-later
import OTCPromptHost

/// Where the user's speech-dispatcher listens, found exactly as libspeechd 0.11 finds it
/// (`spd_get_default_address`), so otc-prompt reaches the server every other client reaches.
public enum SpeechDispatcherAddress: Equatable, Sendable {
    case unixSocket(path: String)
    /// `SPEECHD_ADDRESS` names a method otc-prompt does not speak: `inet_socket` (TCP, which
    /// would carry the code over the network), or one libspeechd does not know either.
    case unsupported(method: String)

    /// As a user reads it: the socket's path, or the method that is not spoken.
    public var readable: String {
        switch self {
        case .unixSocket(let path): path
        case .unsupported(let method): "\(method) (not supported: only a unix socket is)"
        }
    }

    /// `SPEECHD_ADDRESS` (`unix_socket:PATH`; `unix_socket` alone means the default path), else
    /// `$XDG_RUNTIME_DIR/speech-dispatcher/speechd.sock`, else the same under glib's user cache
    /// directory (`$XDG_CACHE_HOME`, else `~/.cache`), as `g_get_user_runtime_dir` falls back.
    /// - Parameters:
    ///   - environment: the process's environment.
    ///   - homeDirectory: the user's home (`$HOME`, else the password database), for `~/.cache`.
    public static func resolve(environment: [String: String], homeDirectory: String) -> SpeechDispatcherAddress {
        let defaultPath = defaultSocketPath(environment: environment, homeDirectory: homeDirectory)
        guard let value = environment["SPEECHD_ADDRESS"] else { return .unixSocket(path: defaultPath) }
        // g_strsplit(value, ":", 0): the path is the second field, whatever follows a further colon is ignored.
        let fields = value.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        if value.isEmpty || fields[0] == "unix_socket" {
            return .unixSocket(path: fields.count > 1 ? fields[1] : defaultPath)
        }
        return .unsupported(method: fields[0])
    }

    private static func defaultSocketPath(environment: [String: String], homeDirectory: String) -> String {
        let runtime =
            environment["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 }
            ?? environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? homeDirectory + "/.cache"
        return runtime + "/speech-dispatcher/speechd.sock"
    }
}

extension SpeechDispatcherAddress {
    /// `resolve(environment:homeDirectory:)` for `user`, whose home is `$HOME` when set, as glib takes it.
    public static func resolve(environment: [String: String], user: UserAccount) -> SpeechDispatcherAddress {
        resolve(environment: environment, homeDirectory: environment["HOME"] ?? user.homeDirectory)
    }
}
