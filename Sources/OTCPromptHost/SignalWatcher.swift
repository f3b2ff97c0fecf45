// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptCore
import OTCPromptSystem
import Synchronization

/// The write end of the installed watcher's pipe, or -1. This is the one global the module has: a
/// signal handler receives no user-data pointer, so the handler can reach the pipe only through it.
/// It is an atomic set before any handler is installed, so the handler only loads a lock-free value.
private let signalPipeWriteEnd = Atomic<Int32>(-1)

/// The signal handler: writes the signal number to the pipe and nothing else (no allocation, no
/// locks, no Swift runtime calls), keeping errno as it was. The one write that does not go through the door:
/// the door's test hook takes a lock, which a signal handler must never do.
private func forwardSignalToPipe(_ signal: Int32) {
    let savedErrno = errno
    let descriptor = signalPipeWriteEnd.load(ordering: .relaxed)
    if descriptor >= 0 {
        var byte = UInt8(truncatingIfNeeded: signal)
        _ = write(descriptor, &byte, 1)
    }
    errno = savedErrno
}

/// Turns signals into bytes on a pipe (the self-pipe trick), so the prompt handles them in its
/// normal flow: `Terminal.read` polls `descriptor` together with the keyboard.
///
/// One watcher per process. Signals that were ignored when it was created (a background job's
/// SIGINT, nohup's SIGHUP) stay ignored. SIGPIPE is ignored for the rest of the process, so a write
/// to a closed pipe returns EPIPE instead of killing the prompt.
public final class SignalWatcher {
    /// The signals a prompt watches: the terminating ones, job control and window size.
    /// Every signal whose default action would end or stop the process with the terminal still raw,
    /// plus SIGWINCH (redraw) and SIGCHLD (a `--check` ended: its verdict is read at once).
    public static let promptSignals: [Int32] = [
        SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGTSTP, SIGCONT, SIGWINCH, SIGCHLD,
    ]

    /// The read end of the pipe, for poll; one byte per signal delivered.
    public let descriptor: Int32
    private let writeEnd: Int32
    private var previousActions: [Int32: sigaction] = [:]
    private var installed = true
    /// SIG_IGN's value, which Swift cannot compare as a function.
    private let ignoredHandlerAddress: UInt = 1

    /// Installs the handler for each of `signals` that is not ignored. The corresponding C call is `sigaction`.
    public init(signals: [Int32] = SignalWatcher.promptSignals) throws(HostError) {
        let ends = try SystemCalls.wakeUpPipe()
        // Refused before the watcher is whole: a whole one's deinit would close both ends a second time (by then
        // maybe another thread's descriptors) and clear the installed watcher's pipe, deafening it.
        guard
            signalPipeWriteEnd.compareExchange(expected: -1, desired: ends.write, ordering: .sequentiallyConsistent)
                .exchanged
        else {
            _ = close(ends.read)
            _ = close(ends.write)
            throw .signalWatcherAlreadyInstalled
        }
        descriptor = ends.read
        writeEnd = ends.write
        var ignore = sigaction()
        ignore.__sigaction_handler.sa_handler = SIG_IGN
        sigemptyset(&ignore.sa_mask)
        _ = sigaction(SIGPIPE, &ignore, nil)

        var handle = Self.forwardingAction()
        for signal in Set(signals) {
            var previous = sigaction()
            guard sigaction(signal, nil, &previous) == 0 else { continue }
            // An ignored signal stays ignored (nohup, a background job's SIGINT), except SIGCHLD: an
            // inherited SIG_IGN there would leave the prompt deaf to a check's exit (and make the
            // kernel reap it before its status can be read).
            let wasIgnored = unsafeBitCast(previous.__sigaction_handler, to: UInt.self) == ignoredHandlerAddress
            if wasIgnored && signal != SIGCHLD { continue }
            previousActions[signal] = previous
            _ = sigaction(signal, &handle, nil)
        }
    }

    deinit {
        restoreDefaults()
        _ = close(descriptor)
        _ = close(writeEnd)
    }

    /// The signals this watcher handles (those asked for that were not ignored).
    public var watchedSignals: Set<Int32> { Set(previousActions.keys) }

    /// The next signal delivered and not yet taken, without waiting; nil when there is none.
    public func takePendingSignal() -> Int32? {
        var byte: UInt8 = 0
        return SystemCall.retrying("read") { read(descriptor, &byte, 1) } == 1 ? Int32(byte) : nil
    }

    /// Puts back the dispositions found at creation (normally the defaults); idempotent.
    /// SIGPIPE stays ignored, so a late write to a closed pipe still returns EPIPE.
    public func restoreDefaults() {
        guard installed else { return }
        installed = false
        for (signal, var previous) in previousActions {
            _ = sigaction(signal, &previous, nil)
        }
        signalPipeWriteEnd.store(-1, ordering: .sequentiallyConsistent)
    }

    /// Ends the process the way `signal` would have, so the shell sees status 128+N.
    ///
    /// Restore the terminal first. Puts back the default disposition, unblocks the signal and
    /// raises it; should the signal not terminate (its default is to ignore, or a stop the kernel
    /// discards), exits with 128+N anyway.
    public func reraise(_ signal: Int32) -> Never {
        restoreDefaults()
        setDefaultDisposition(signal)
        unblock(signal)
        _ = raise(signal)
        _exit(ExitStatus.signalled(signal))
    }

    /// Whether `stopProcess` would stop the process: SIGTSTP is handled (not ignored at creation) and
    /// the process group is not orphaned, as far as /proc can tell (`ProcessGroup`); when it cannot
    /// tell, the stop is tried as a job's would be.
    public var canStopProcess: Bool {
        installed && previousActions[SIGTSTP] != nil && ProcessGroup.currentIsOrphaned() != true
    }

    /// Stops the process for SIGTSTP (or a Ctrl-Z typed in raw mode) and returns once continued.
    ///
    /// Restore the terminal first and re-enter raw mode afterwards. Sends SIGTSTP with the default
    /// disposition to the process group, as the terminal driver would, then reinstalls the handler.
    /// If SIGTSTP was ignored at creation, does nothing. In an orphaned process group (a session of
    /// its own, as under a pty harness) the kernel discards the stop and this returns at once.
    public func stopProcess() {
        guard installed, previousActions[SIGTSTP] != nil else { return }
        setDefaultDisposition(SIGTSTP)
        unblock(SIGTSTP)
        _ = kill(0, SIGTSTP)
        var handle = Self.forwardingAction()
        _ = sigaction(SIGTSTP, &handle, nil)
    }

    /// The disposition that sends a signal to the pipe; SA_RESTART so other threads' I/O is not cut short.
    private static func forwardingAction() -> sigaction {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = forwardSignalToPipe
        action.sa_flags = SA_RESTART
        sigemptyset(&action.sa_mask)
        return action
    }

    private func setDefaultDisposition(_ signal: Int32) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = SIG_DFL
        sigemptyset(&action.sa_mask)
        _ = sigaction(signal, &action, nil)
    }

    private func unblock(_ signal: Int32) {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, signal)
        _ = pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }
}
