// SPDX-License-Identifier: GPL-3.0-or-later

/// The unix socket libpulse connects to for espeak-ng, so that it can be checked to be the user's own first.
public enum PulseAudioSocket {
    /// The first server `PULSE_SERVER` names when it is a unix socket (`unix:PATH`, `PATH`, either after a
    /// `{machine-id}`); else, with no `PULSE_SERVER`, `$PULSE_RUNTIME_PATH/native` or
    /// `$XDG_RUNTIME_DIR/pulse/native`, as libpulse looks. nil for a TCP server or nothing to look at.
    public static func path(environment: [String: String]) -> String? {
        if let servers = environment["PULSE_SERVER"], !servers.isEmpty {
            guard var first = servers.split(separator: " ").first.map(String.init) else { return nil }
            if first.hasPrefix("{"), let close = first.firstIndex(of: "}") {
                first = String(first[first.index(after: close)...])
            }
            if first.hasPrefix("unix:") { return String(first.dropFirst(5)) }
            return first.hasPrefix("/") ? first : nil
        }
        if let runtime = environment["PULSE_RUNTIME_PATH"], !runtime.isEmpty { return runtime + "/native" }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty { return runtime + "/pulse/native" }
        return nil
    }
}

extension SpeechRoute {
    /// espeak-ng plays through PulseAudio; when that server's socket is another user's (`refused` says
    /// why), a code is never played there: text lines instead, and why.
    public func refusingForeignPulseAudio(at path: String, refused: String?) -> SpeechRoute {
        guard kind == .espeak, let refused else { return self }
        return SpeechRoute(
            .text, reason: "the PulseAudio at \(path) is refused (\(refused)), so espeak-ng is not used: \(reason)")
    }
}
