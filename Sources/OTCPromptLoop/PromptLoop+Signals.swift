import OTCPromptCore

#if canImport(Glibc)
    import Glibc  // signal numbers only
#endif

/// Signals and Ctrl-Z: what the loop does between two waits when one arrives.
extension PromptLoop {
    mutating func handle(signal: Int32) -> PromptOutcome? {
        switch signal {
        case SIGWINCH:
            outputs.draw(session.snapshot, whole: true)
            return nil
        case SIGTSTP:
            return suspend()
        case SIGCONT:
            if resumedAfterOwnStop {
                resumedAfterOwnStop = false
                return nil
            }
            // Continued after a stop by someone else (SIGSTOP): the shell may have reset the
            // terminal meanwhile, so raw mode is set again from what the terminal is now, never passing through
            // its echo (a key typed at that moment would be shown).
            do { try terminal.reassertRawMode(bracketedPaste: !capabilities.isDumb) } catch { return .terminalClosed }
            return resume()
        case SIGCHLD:
            return nil  // the check's verdict is read right after
        default:
            return .signalled(signal)
        }
    }

    /// The longest Ctrl-Z waits for a voice still starting.
    static var voiceStartBeforeStop: Duration { .seconds(1) }

    /// Ctrl-Z: leave the terminal as it was, stop, and come back to the prompt when continued. Where
    /// the stop cannot happen or must not, say so and leave the field as it is: announcing the whole
    /// prompt again would only hide that Ctrl-Z did nothing, and the "fg" typed next would land in it.
    mutating func suspend() -> PromptOutcome? {
        guard system.suspension == .asAJob, terminal.canStopProcess else {
            let text = session.wording.cannotSuspend(whileCallerWaits: system.suspension == .refusedWhileCallerWaits)
            return perform([.announce(Announcement(.notice, text)), .show(text)])
        }
        // A voice still starting is let finish first (a second at most): stopped halfway, its deadlines (the
        // audio server's answer, the engine's readiness) would pass while stopped, and it would be given up on.
        if let startup = speechStartup,
            terminal.waitUntilReadable(startup.descriptor, timeout: Self.voiceStartBeforeStop)
        {
            if let outcome = followSpeechStartup() { return outcome }
        }
        outputs.end()
        terminal.restore()
        outputs.release()
        terminal.stopProcess()
        // Here the process has been stopped and continued, or was never stopped at all (its group
        // became orphaned after `canStopProcess` looked, and the kernel dropped the stop). Either way
        // the prompt must take the terminal back now, not wait for a SIGCONT.
        resumedAfterOwnStop = true
        return resume()
    }
}
