// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptCore
import OTCPromptHost
import OTCPromptSystem

/// The terminal the prompt runs on: where keys come from and where the prompt is drawn.
///
/// It owns the descriptors it opened and restores the terminal when it goes away, so a forgotten
/// `restore()` on an error path still leaves the user with a working terminal.
public final class Terminal {
    /// Where keys are read from and whose attributes raw mode changes.
    public let input: Int32
    /// Where the prompt is drawn.
    public let output: Int32
    /// Signals to wait for together with input; `read` returns them as `.signal`.
    public var signalWatcher: SignalWatcher?

    private let closesDescriptorsOnDeinit: Bool
    // Each change to what `restore()` puts back is handed to the last-resort handler too (`CrashRestore`).
    var savedAttributes: termios? { didSet { updateCrashRestore() } }
    var isRaw = false { didSet { if oldValue != isRaw { updateCrashRestore() } } }
    var bracketedPasteWasEnabled = false {
        didSet { if oldValue != bracketedPasteWasEnabled { updateCrashRestore() } }
    }
    var cursorIsHidden = false { didSet { if oldValue != cursorIsHidden { updateCrashRestore() } } }
    var keyboardDisambiguationIsOn = false {
        didSet { if oldValue != keyboardDisambiguationIsOn { updateCrashRestore() } }
    }
    var escapeSequencesWritten = false {
        didSet { if oldValue != escapeSequencesWritten { updateCrashRestore() } }
    }
    /// What the terminal's bytes mean (`LocaleCodeset`): input is decoded from it to UTF-8, output encoded to it.
    public var encoding = TerminalEncoding.utf8

    /// A terminal over descriptors someone else opened (a test's pty, stdin); they are closed on
    /// deinit only when `closesDescriptorsOnDeinit` is true.
    public init(
        input: Int32, output: Int32, closesDescriptorsOnDeinit: Bool = false,
        signalWatcher: SignalWatcher? = nil
    ) {
        self.input = input
        self.output = output
        self.closesDescriptorsOnDeinit = closesDescriptorsOnDeinit
        self.signalWatcher = signalWatcher
    }

    deinit {
        restore()
        CrashRestore.disarm(input: input)
        if closesDescriptorsOnDeinit {
            _ = Glibc.close(input)
            if output != input { _ = Glibc.close(output) }
        }
    }

    /// Whether `open` would find a terminal (the controlling one, or stdin), without keeping it.
    /// The corresponding C functions are `open`, `close` and `isatty`.
    public static var isAvailable: Bool {
        let descriptor = SystemCall.retrying("open") { Glibc.open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY) }
        if descriptor >= 0 {
            _ = Glibc.close(descriptor)
            return true
        }
        return isatty(STDIN_FILENO) == 1
    }

    /// Opens the controlling terminal, falling back to stdin/stderr, never waiting for one.
    ///
    /// /dev/tty is opened O_RDWR|O_CLOEXEC|O_NOCTTY. If that fails and stdin is a terminal, stdin is
    /// read and stderr (when a terminal, else stdin) is written, through copies of those
    /// descriptors. Otherwise `.noTerminal`. The corresponding C functions are `open`, `isatty` and
    /// `fcntl(F_DUPFD_CLOEXEC)`.
    public static func open(signalWatcher: SignalWatcher? = nil) throws(HostError) -> Terminal {
        let descriptor = SystemCall.retrying("open") { Glibc.open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY) }
        if descriptor >= 0 {
            if isatty(descriptor) == 1 {
                let tty = descriptor
                return Terminal(input: tty, output: tty, closesDescriptorsOnDeinit: true, signalWatcher: signalWatcher)
            }
            _ = Glibc.close(descriptor)
        }
        guard isatty(STDIN_FILENO) == 1 else { throw .noTerminal }
        // Copies: the audio libraries' start-up points fd 2 at a capture file for a while
        // (`StderrCapture`), which must not swallow the prompt drawn meanwhile.
        let input = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3)
        let ownError = StandardError.descriptor
        let output = fcntl(isatty(ownError) == 1 ? ownError : STDIN_FILENO, F_DUPFD_CLOEXEC, 3)
        guard input >= 0, output >= 0 else {
            let failure = Errno.current
            if input >= 0 { _ = Glibc.close(input) }
            if output >= 0 { _ = Glibc.close(output) }
            throw .system(failure, call: "fcntl")
        }
        return Terminal(input: input, output: output, closesDescriptorsOnDeinit: true, signalWatcher: signalWatcher)
    }

    /// Opens the terminal at `path` (the tty gpg-agent names with `OPTION ttyname`), not the one
    /// this process inherited; O_RDWR|O_CLOEXEC|O_NOCTTY, so it never becomes our controlling tty.
    /// - Throws: `.system(errno, call: "open")` when it cannot be opened, `.system(ENOTTY, call:
    ///   "isatty")` when it is not a terminal.
    public static func open(path: String, signalWatcher: SignalWatcher? = nil) throws(HostError) -> Terminal {
        let descriptor = SystemCall.retrying("open") { Glibc.open(path, O_RDWR | O_CLOEXEC | O_NOCTTY) }
        guard descriptor >= 0 else { throw .system(Errno.current, call: "open") }
        guard isatty(descriptor) == 1 else {
            _ = Glibc.close(descriptor)
            throw .system(.inappropriateIOCTLForDevice, call: "isatty")
        }
        let tty = descriptor
        return Terminal(input: tty, output: tty, closesDescriptorsOnDeinit: true, signalWatcher: signalWatcher)
    }

    /// Whether keys come from a terminal (false for a pipe or a file handed to `init`).
    public var inputIsTerminal: Bool { isatty(input) == 1 }

    /// Whether the prompt is drawn on a terminal.
    public var outputIsTerminal: Bool { isatty(output) == 1 }

    /// Writes all of `text` (partial writes and EINTR are retried); false once the terminal is gone.
    ///
    /// In raw mode OPOST is off: end lines with "\r\n".
    @discardableResult
    public func write(_ text: String) -> Bool {
        if !escapeSequencesWritten && text.utf8.contains(0x1B) { escapeSequencesWritten = true }
        return writeUnrecorded(text)
    }

    /// Writes a message for the user (a notice, an error), each of its lines made visible
    /// (`UntrustedText`): whatever it quotes, no control character reaches the terminal raw.
    @discardableResult
    public func writeLine(_ message: String) -> Bool {
        writeUnrecorded(UntrustedText.visibleLines(message).joined(separator: "\r\n") + "\r\n")
    }

    /// Writes without noting escape sequences; for the sequences the terminal itself manages.
    func writeUnrecorded(_ text: String) -> Bool {
        if encoding == .utf8 { return SystemCalls.writeAll(text.utf8, to: output) == nil }
        return SystemCalls.writeAll(encoding.encode(text), to: output) == nil
    }

    /// The window's width in columns, nil when unknown. The corresponding C call is `ioctl(TIOCGWINSZ)`.
    public var columns: Int? { windowSize.map { Int($0.ws_col) } }

    /// The window's height in rows, nil when unknown.
    public var rows: Int? { windowSize.map { Int($0.ws_row) } }

    private var windowSize: winsize? {
        for descriptor in [output, input] {
            var size = winsize()
            if ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return size }
        }
        return nil
    }

    /// Waits for input, the signal watcher, `others` (a running check, a voice starting) and the hang-up
    /// of `caller` at once, in one poll, at most `timeout` (nil: forever).
    ///
    /// A pending signal is returned before any input; one signal per call, in arrival order. The
    /// caller is watched for hang-up only, never read: end of file or POLLHUP on its input (for a
    /// socket, POLLRDHUP), POLLERR on its output (the reader of a pipe gone). Data it sends stays
    /// unread for its own reader. Its hang-up wins over bytes waiting on the terminal.
    public func read(
        timeout: Duration?, alsoWatching others: [Int32] = [], callerWatching caller: [Int32] = []
    ) -> TerminalInput {
        let deadline = timeout.map { MonotonicInstant.now.advanced(by: $0) }
        while true {
            if let signal = signalWatcher?.takePendingSignal() { return .signal(signal) }
            var descriptors = [pollfd(fd: input, events: Int16(POLLIN), revents: 0)]
            // A negative descriptor is ignored by poll, which keeps the indices fixed.
            descriptors.append(pollfd(fd: signalWatcher?.descriptor ?? -1, events: Int16(POLLIN), revents: 0))
            for other in others { descriptors.append(pollfd(fd: other, events: Int16(POLLIN), revents: 0)) }
            // POLLHUP, POLLERR and POLLNVAL are reported whatever is asked; POLLRDHUP is a socket's end of file.
            for descriptor in caller {
                descriptors.append(pollfd(fd: descriptor, events: SystemCalls.pollReadHangUp, revents: 0))
            }
            let milliseconds = deadline.map { MonotonicInstant.now.duration(to: $0).pollTimeout } ?? -1
            // A signal's EINTR is retried by the door: its handler has written the self-pipe, so poll returns at once.
            let ready = SystemCall.retrying("poll") { poll(&descriptors, nfds_t(descriptors.count), milliseconds) }
            if ready < 0 { return .closed }
            if ready == 0 {
                if let deadline, MonotonicInstant.now >= deadline { return .timedOut }
                continue
            }
            if descriptors[1].revents != 0, let signal = signalWatcher?.takePendingSignal() {
                return .signal(signal)
            }
            if descriptors.suffix(caller.count).contains(where: { $0.revents != 0 }) { return .callerGone }
            if descriptors[2..<(2 + others.count)].contains(where: { $0.revents != 0 }) { return .otherReady }
            let events = Int32(descriptors[0].revents)
            if events & Int32(POLLIN) != 0 {
                switch readAvailableBytes() {
                case .some(let bytes): return bytes.isEmpty ? .closed : .bytes(encoding.decode(bytes))
                case .none: continue
                }
            }
            if events & Int32(POLLHUP | POLLERR | POLLNVAL) != 0 { return .closed }
        }
    }

    /// Waits at most `timeout` for `descriptor` alone to become readable; whether it did. The terminal is not
    /// read. The corresponding C call is `poll`.
    public func waitUntilReadable(_ descriptor: Int32, timeout: Duration) -> Bool {
        let deadline = MonotonicInstant.now.advanced(by: timeout)
        var watched = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let left = MonotonicInstant.now.duration(to: deadline)
            guard left > .zero else { return false }
            let ready = SystemCall.retrying("poll") { poll(&watched, 1, left.pollTimeout) }
            if ready != 0 { return ready > 0 }
        }
    }

    /// Reads what is there: the bytes ([] at end of file or on an error such as EIO after a
    /// hang-up), or nil when the read should simply be tried again (EAGAIN; the door retries EINTR).
    private func readAvailableBytes() -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { raw in
            SystemCall.retrying("read") { Glibc.read(input, raw.baseAddress, raw.count) }
        }
        if count > 0 { return Array(buffer[0..<count]) }
        if count < 0 && Errno.current == .resourceTemporarilyUnavailable { return nil }
        return []
    }
}
