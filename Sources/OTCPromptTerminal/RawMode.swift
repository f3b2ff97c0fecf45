// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptHost
import OTCPromptSystem

/// The escape sequences the prompt turns on and must always turn off again.
enum TerminalSequence {
    static let bracketedPasteOn = "\u{1B}[?2004h"
    static let bracketedPasteOff = "\u{1B}[?2004l"
    static let cursorHidden = "\u{1B}[?25l"
    static let cursorShown = "\u{1B}[?25h"
    static let attributesReset = "\u{1B}[0m"
    /// kitty's keyboard protocol: is it there (CSI ? u), then the primary device attributes (CSI c), which every
    /// terminal answers, last.
    static let keyboardProtocolQuery = "\u{1B}[?u\u{1B}[c"
    /// Push "disambiguate escape codes" (flag 1) on the terminal's stack of keyboard modes, and pop it.
    static let keyboardDisambiguationOn = "\u{1B}[>1u"
    static let keyboardDisambiguationOff = "\u{1B}[<u"
}

extension Terminal {
    /// Saves the terminal's attributes and switches to raw mode, keeping keys typed ahead.
    ///
    /// TCSADRAIN, not TCSAFLUSH: digits typed before the prompt appeared stay in the queue. ISIG is
    /// off (Ctrl-C, Ctrl-Z, Ctrl-\ arrive as 0x03, 0x1A, 0x1C), OPOST is off (write "\r\n"), VMIN=1 VTIME=0.
    /// Bracketed paste (ESC[?2004h) is enabled unless `bracketedPaste` is false (TERM=dumb).
    /// Calling it again while raw does nothing; after `restore()` it saves afresh (SIGCONT).
    /// The corresponding C functions are `tcgetattr` and `tcsetattr`.
    public func enterRawMode(bracketedPaste: Bool = true) throws(HostError) {
        guard !isRaw else { return }
        var attributes = termios()
        guard tcgetattr(input, &attributes) == 0 else {
            throw .system(Errno.current, call: "tcgetattr")
        }
        var raw = Self.rawAttributes(from: attributes)
        let result = SystemCall.retrying("tcsetattr") { tcsetattr(input, TCSADRAIN, &raw) }
        guard result == 0 else { throw .system(Errno.current, call: "tcsetattr") }
        savedAttributes = attributes
        isRaw = true
        if bracketedPaste {
            bracketedPasteWasEnabled = true
            _ = writeUnrecorded(TerminalSequence.bracketedPasteOn)
        }
    }

    /// Puts the terminal back as it was; idempotent, never fails, safe on every exit path.
    ///
    /// Writes ESC[<u if kitty's disambiguate mode is on, ESC[?2004l (whenever bracketed paste was ever enabled
    /// here, every time), ESC[?25h if the cursor was hidden, ESC[0m if escape sequences were written, then the
    /// saved attributes with TCSADRAIN. `enterRawMode` may be called again afterwards.
    public func restore() {
        restore(discardingInput: false)
    }

    /// `restore()`, and with `discardingInput` what has been typed and not yet read is discarded in the same
    /// step (TCSAFLUSH, as readpassphrase restores): what is typed after it reaches the next reader as typed,
    /// with the restored attributes. The corresponding C functions are `tcsetattr` and `tcflush`.
    public func restore(discardingInput: Bool) {
        var sequences = ""
        if keyboardDisambiguationIsOn { sequences += TerminalSequence.keyboardDisambiguationOff }
        keyboardDisambiguationIsOn = false
        if bracketedPasteWasEnabled { sequences += TerminalSequence.bracketedPasteOff }
        if cursorIsHidden { sequences += TerminalSequence.cursorShown }
        if escapeSequencesWritten { sequences += TerminalSequence.attributesReset }
        if !sequences.isEmpty { _ = writeUnrecorded(sequences) }
        cursorIsHidden = false
        escapeSequencesWritten = false
        guard isRaw, var saved = savedAttributes else {
            if discardingInput { discardInput() }
            return
        }
        let when = discardingInput ? TCSAFLUSH : TCSADRAIN
        _ = SystemCall.retrying("tcsetattr") { tcsetattr(input, when, &saved) }
        isRaw = false
    }

    /// `restore(discardingInput: true)`, and then `bytes` (UTF-8: keys typed after the Esc that ended the prompt, read
    /// with it) go back to the terminal's input, followed by what was typed and not yet read: the next program reads
    /// them all in the order typed, through the restored attributes, as if typed now (Enter becomes a line feed, a
    /// terminal that echoes echoes them). A key that would raise a signal there (Ctrl-C, Ctrl-\, Ctrl-Z) and what
    /// follows it go, as typed while the prompt decided. Where the kernel refuses to take keys back
    /// (`dev.tty.legacy_tiocsti` = 0, or a terminal that is not this process's own), they are discarded with the rest.
    /// The corresponding C calls are `poll`, `read`, `tcsetattr` and `ioctl(TIOCSTI)`.
    public func restore(givingBack bytes: [UInt8]) {
        var keys = encoding == .utf8 ? bytes : encoding.encode(String(decoding: bytes, as: UTF8.self))
        keys += queuedBytes()
        let signalling = savedAttributes.map(Self.signallingKeys) ?? []
        restore(discardingInput: true)
        for key in keys.prefix(while: { !signalling.contains($0) }) {
            var byte = key
            guard SystemCall.retrying("ioctl", { ioctl(input, UInt(TIOCSTI), &byte) }) == 0 else { return }
        }
    }

    /// What has been typed and not yet read, read now without waiting (at most 64 KiB).
    private func queuedBytes() -> [UInt8] {
        var queued: [UInt8] = []
        var ready = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while queued.count < 65536, SystemCall.retrying("poll", { poll(&ready, 1, 0) }) == 1,
            ready.revents & Int16(POLLIN) != 0
        {
            let count = buffer.withUnsafeMutableBytes { raw in
                SystemCall.retrying("read") { Glibc.read(input, raw.baseAddress, raw.count) }
            }
            guard count > 0 else { break }
            queued += buffer[0..<count]
        }
        return queued
    }

    /// The keys that raise a signal under `attributes` (with ISIG: interrupt, quit, suspend).
    static func signallingKeys(_ attributes: termios) -> [UInt8] {
        guard attributes.c_lflag & tcflag_t(ISIG) != 0 else { return [] }
        return withUnsafeBytes(of: attributes.c_cc) { keys in
            [keys[Int(VINTR)], keys[Int(VQUIT)], keys[Int(VSUSP)]].filter { $0 != 0 }
        }
    }

    /// Discards what has been typed and not yet read, so that no leftover answers a question or
    /// reaches the next program. Best effort: a terminal that refuses has nothing to discard.
    /// The corresponding C function is `tcflush` (TCIFLUSH).
    public func discardInput() {
        _ = SystemCall.retrying("tcflush") { tcflush(input, TCIFLUSH) }
    }

    /// Back from a stop by someone else (SIGSTOP, then SIGCONT), during which a shell may have reset the terminal:
    /// raw mode is set again, with no moment of echo in between (a `restore()` first would echo a key typed then).
    /// Attributes that are no longer raw are the shell's now, and become what `restore()` puts back.
    /// The corresponding C functions are `tcgetattr` and `tcsetattr`.
    public func reassertRawMode(bracketedPaste: Bool = true) throws(HostError) {
        guard isRaw else { return try enterRawMode(bracketedPaste: bracketedPaste) }
        var current = termios()
        guard tcgetattr(input, &current) == 0 else { throw .system(Errno.current, call: "tcgetattr") }
        guard current.c_lflag & tcflag_t(ECHO | ICANON) != 0 else { return }
        var raw = Self.rawAttributes(from: current)
        let result = SystemCall.retrying("tcsetattr") { tcsetattr(input, TCSADRAIN, &raw) }
        guard result == 0 else { throw .system(Errno.current, call: "tcsetattr") }
        savedAttributes = current
        // The shell that reset the terminal has turned bracketed paste off too.
        if bracketedPaste {
            bracketedPasteWasEnabled = true
            _ = writeUnrecorded(TerminalSequence.bracketedPasteOn)
        }
    }

    /// Asks whether the terminal has kitty's keyboard protocol (`KeyboardProtocol`); the answers come as input.
    public func askKeyboardProtocol() {
        _ = writeUnrecorded(TerminalSequence.keyboardProtocolQuery)
    }

    /// Turns kitty's "disambiguate" keyboard mode on or off; `restore()` turns it off too, on every way out.
    public func setKeyboardDisambiguation(_ on: Bool) {
        guard on != keyboardDisambiguationIsOn else { return }
        keyboardDisambiguationIsOn = on
        _ = writeUnrecorded(on ? TerminalSequence.keyboardDisambiguationOn : TerminalSequence.keyboardDisambiguationOff)
    }

    /// Hands `CrashRestore` what `restore()` would put back now: the same bytes, and the saved attributes while raw.
    func updateCrashRestore() {
        var sequences = ""
        if keyboardDisambiguationIsOn { sequences += TerminalSequence.keyboardDisambiguationOff }
        if bracketedPasteWasEnabled { sequences += TerminalSequence.bracketedPasteOff }
        if cursorIsHidden { sequences += TerminalSequence.cursorShown }
        if escapeSequencesWritten { sequences += TerminalSequence.attributesReset }
        CrashRestore.arm(
            input: input, output: output, attributes: isRaw ? savedAttributes : nil, sequence: sequences)
    }

    /// Whether raw mode is on (between `enterRawMode` and `restore`).
    public var isInRawMode: Bool { isRaw }

    /// Hides or shows the cursor; `restore()` shows it again if it is hidden.
    public func setCursorVisible(_ visible: Bool) {
        cursorIsHidden = !visible
        _ = writeUnrecorded(visible ? TerminalSequence.cursorShown : TerminalSequence.cursorHidden)
    }

    /// The raw-mode version of `attributes`: what cfmakeraw does, spelled out so it can be checked.
    public static func rawAttributes(from attributes: termios) -> termios {
        var raw = attributes
        raw.c_iflag &= ~tcflag_t(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON)
        raw.c_oflag &= ~tcflag_t(OPOST)
        raw.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON | ISIG | IEXTEN)
        raw.c_cflag &= ~tcflag_t(CSIZE | PARENB)
        raw.c_cflag |= tcflag_t(CS8)
        withUnsafeMutableBytes(of: &raw.c_cc) { controlCharacters in
            controlCharacters[Int(VMIN)] = 1
            controlCharacters[Int(VTIME)] = 0
        }
        return raw
    }
}
