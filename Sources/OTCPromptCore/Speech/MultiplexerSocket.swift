// SPDX-License-Identifier: GPL-3.0-or-later

/// The socket a tmux process talks to, worked out from its command line as tmux itself does: a client
/// belongs to the server that listens on the same socket, and to no other. Several servers of one user
/// (`tmux -L work`, `tmux -L play`) each have clients of their own.
public enum MultiplexerSocket {
    /// tmux's options that take a value (tmux 3.x `getopt` string "2c:CDdf:lL:NqS:T:uUvV").
    private static let takesValue: Set<Character> = ["c", "f", "L", "S", "T"]

    /// The socket path of a tmux process: `-S PATH`; else `-L NAME` under `$TMUX_TMPDIR` (or /tmp)/tmux-UID;
    /// else the socket named in `$TMUX` (a client started inside a pane); else the label "default".
    /// - Parameters:
    ///   - arguments: the process's command line, its program first; nil when it could not be read.
    ///   - uid: the process's real uid, which names tmux's directory.
    ///   - variable: one variable of the process's environment (TMUX, TMUX_TMPDIR), nil when unset or unread.
    /// - Returns: nil when the command line is missing or cannot be understood: such a process counts for
    ///   no server.
    public static func tmux(arguments: [String]?, uid: UInt32, variable: (String) -> String?) -> String? {
        guard let arguments, !arguments.isEmpty else { return nil }
        var label: String?
        var path: String?
        var index = 1
        options: while index < arguments.count {
            let argument = arguments[index]
            guard argument.hasPrefix("-"), argument != "-" else { break }
            if argument == "--" { break }
            var flags = Substring(argument.dropFirst())
            while let flag = flags.first {
                flags = flags.dropFirst()
                guard takesValue.contains(flag) else { continue }
                let value: String
                if !flags.isEmpty {
                    value = String(flags)
                } else {
                    index += 1
                    guard index < arguments.count else { return nil }
                    value = arguments[index]
                }
                if flag == "L" { label = value }
                if flag == "S" { path = value }
                break
            }
            index += 1
            continue options
        }
        if let path { return path.isEmpty ? nil : path }
        if label == nil, let inside = variable("TMUX"), !inside.isEmpty {
            return String(inside.prefix { $0 != "," })
        }
        let name = label ?? "default"
        guard !name.isEmpty, !name.contains("/") else { return nil }
        let directory = variable("TMUX_TMPDIR").flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        return "\(directory)/tmux-\(uid)/\(name)"
    }
}
