// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptHost
import OTCPromptSystem

/// What ended a quiet wait (`Terminal.awaitActivity`): no key is read.
public enum TerminalActivity: Equatable, Sendable {
    /// Bytes wait on the terminal, unread, for the prompt that will read them.
    case input
    /// One of the other descriptors is readable.
    case otherReady
    /// The process was stopped (Ctrl-Z from outside, SIGTSTP) and continued: the terminal is as it was found, for
    /// the prompt to take again and draw itself anew.
    case resumed
    /// A signal that ends the process: the caller restores the terminal and raises it again.
    case ending(Int32)
    /// The terminal hung up.
    case closed
}

extension Terminal {
    /// The attributes `restore()` puts back and whether bracketed paste is on, while in raw mode.
    public var rawModeHandoff: (original: termios, bracketedPaste: Bool)? {
        guard isRaw, let savedAttributes else { return nil }
        return (savedAttributes, bracketedPasteWasEnabled)
    }

    /// Takes over a terminal the previous image left in raw mode (`AgentRenewal`): `restore()` will put back
    /// `original`, not the raw attributes it finds.
    public func adoptRawMode(original: termios, bracketedPaste: Bool) {
        savedAttributes = original
        isRaw = true
        bracketedPasteWasEnabled = bracketedPaste
    }

    /// Waits with no deadline until a key is typed (left unread), one of `others` is readable, a signal ends the
    /// process or the terminal hangs up: the idle agent's wait, with nothing of its voice loaded. A window's new
    /// size and a child's end are nothing to it; a stop is taken as a job's, `lineEnd` written first (the line
    /// drawn is ended, as a prompt ends its own). The corresponding C call is `poll`.
    public func awaitActivity(alsoWatching others: [Int32], lineEnd: String) -> TerminalActivity {
        while true {
            if let signal = signalWatcher?.takePendingSignal() {
                switch signal {
                case SIGWINCH, SIGCHLD: continue
                case SIGCONT:
                    // Continued after someone else's stop: the shell may have reset the terminal meanwhile.
                    try? reassertRawMode(bracketedPaste: bracketedPasteWasEnabled)
                    continue
                case SIGTSTP:
                    guard let watcher = signalWatcher, watcher.canStopProcess else { continue }
                    write(lineEnd)
                    restore()
                    watcher.stopProcess()
                    return .resumed
                default: return .ending(signal)
                }
            }
            var descriptors = [
                pollfd(fd: input, events: Int16(POLLIN), revents: 0),
                pollfd(fd: signalWatcher?.descriptor ?? -1, events: Int16(POLLIN), revents: 0),
            ]
            for other in others { descriptors.append(pollfd(fd: other, events: Int16(POLLIN), revents: 0)) }
            let ready = SystemCall.retrying("poll") { poll(&descriptors, nfds_t(descriptors.count), -1) }
            if ready < 0 { return .closed }
            if descriptors[1].revents != 0 { continue }
            if descriptors.dropFirst(2).contains(where: { $0.revents != 0 }) { return .otherReady }
            let events = Int32(descriptors[0].revents)
            if events & Int32(POLLIN) != 0 { return .input }
            if events & Int32(POLLHUP | POLLERR | POLLNVAL) != 0 { return .closed }
        }
    }
}
