// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptCore
import OTCPromptSystem

/// The system log (syslog, or the journal through /dev/log), for what must reach a user who has no
/// terminal: an ssh-agent started by systemd or a desktop session runs its askpass with none, and
/// discards its stderr.
public enum SystemLog {
    /// Where syslog(3) sends, and the journal listens.
    static let socketPath = "/dev/log"
    /// LOG_AUTHPRIV | LOG_WARNING: the facility of authentication messages, at a warning's level.
    static let priority = LOG_AUTHPRIV | LOG_WARNING

    /// Logs `message` (made visible, one line) at LOG_WARNING in the authpriv facility, as
    /// "otc-prompt[PID]: message". Best effort: without a log daemon it goes nowhere, and a daemon that is stuck or
    /// behind (its queue full) loses the line rather than holding the prompt (syslog(3) would wait for it, holding
    /// its lock, with no deadline).
    public static func warning(_ message: String) {
        send(UntrustedText.visible(message), to: socketPath)
    }

    /// Sends `message` as one syslog datagram to the socket at `path`, without waiting; false when it was not taken.
    /// The corresponding C calls are `socket` (AF_UNIX, SOCK_DGRAM), `sendto` (MSG_DONTWAIT) and `strftime`.
    @discardableResult
    static func send(_ message: String, to path: String) -> Bool {
        guard let address = UnixSocketAddress(path: path) else { return false }
        let sender = SystemCall.retrying("socket") {
            Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }
        guard sender >= 0 else { return false }
        defer { close(sender) }
        let bytes = Array(line(message, at: time(nil), pid: getpid()).utf8)
        let sent = address.withSocketAddress { socketAddress, length in
            SystemCall.retrying("sendto") {
                sendto(sender, bytes, bytes.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT), socketAddress, length)
            }
        }
        return sent == bytes.count
    }

    /// The datagram syslog(3) would send: "<PRI>Mmm dd hh:mm:ss otc-prompt[PID]: message", in local time.
    static func line(_ message: String, at now: time_t, pid: pid_t) -> String {
        var seconds = now
        var parts = tm()
        var stamp = [CChar](repeating: 0, count: 32)
        // What syslog(3) writes, "%h %e %T"; the process never sets a locale, so the month is named in English.
        let written = localtime_r(&seconds, &parts) == nil ? 0 : strftime(&stamp, stamp.count, "%h %e %T", &parts)
        let time = String(decoding: stamp[..<written].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return "<\(priority)>\(time) otc-prompt[\(pid)]: \(message)"
    }
}
