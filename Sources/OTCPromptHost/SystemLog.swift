// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptCore
import OTCPromptSystem

/// The system log (syslog, or the journal through /dev/log), for what must reach a user who has no
/// terminal: an ssh-agent started by systemd or a desktop session runs its askpass with none, and
/// discards its stderr.
public enum SystemLog {
    /// Logs `message` (made visible, one line) at LOG_WARNING in the authpriv facility, as
    /// "otc-prompt[PID]: message". Best effort: without a log daemon it goes nowhere.
    /// The corresponding C functions are `openlog`, `vsyslog` and `closelog`.
    public static func warning(_ message: String) {
        // openlog keeps the pointer, so the name must be static data.
        let name: StaticString = "otc-prompt"
        openlog(UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self), LOG_PID, LOG_AUTHPRIV)
        UntrustedText.visible(message).withCString { text in
            withVaList([text]) { vsyslog(LOG_WARNING, "%s", $0) }
        }
        closelog()
    }
}
