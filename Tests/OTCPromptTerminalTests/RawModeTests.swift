// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptHost
import OTCPromptTerminal
import OTCPromptTestSupport
import Testing

private let bracketedPasteOn = Array("\u{1B}[?2004h".utf8)
private let bracketedPasteOff = Array("\u{1B}[?2004l".utf8)

/// A Terminal over a new pty's slave, as the prompt would see the user's terminal.
private func terminalOnNewPty() throws -> (PseudoTerminal, Terminal) {
    let pty = try PseudoTerminal()
    let slave = pty.slave
    return (pty, Terminal(input: slave, output: slave))
}

private func contains(_ bytes: [UInt8], _ part: [UInt8]) -> Bool {
    guard bytes.count >= part.count else { return false }
    return (0...(bytes.count - part.count)).contains { Array(bytes[$0..<($0 + part.count)]) == part }
}

@Suite struct RawModeTests {
    @Test func rawModeChangesWhatItMustAndNothingElse() throws {
        let (pty, terminal) = try terminalOnNewPty()
        let cooked = pty.slaveAttributes()
        #expect(cooked.c_lflag & tcflag_t(ICANON | ECHO) == tcflag_t(ICANON | ECHO), "a new pty starts cooked")
        try terminal.enterRawMode()
        let raw = pty.slaveAttributes()
        #expect(raw.c_lflag & tcflag_t(ICANON | ECHO | ISIG | IEXTEN) == 0)
        #expect(raw.c_oflag & tcflag_t(OPOST) == 0)
        #expect(raw.c_iflag & tcflag_t(ICRNL | IXON) == 0)
        let controlCharacters = withUnsafeBytes(of: raw.c_cc) { Array($0) }
        #expect(controlCharacters[Int(VMIN)] == 1)
        #expect(controlCharacters[Int(VTIME)] == 0)
        #expect(raw.bytes == Terminal.rawAttributes(from: cooked).bytes)
        #expect(terminal.isInRawMode)
    }

    @Test func restoreGivesBackIdenticalAttributes() throws {
        let (pty, terminal) = try terminalOnNewPty()
        let before = pty.slaveAttributes()
        try terminal.enterRawMode()
        #expect(pty.slaveAttributes().bytes != before.bytes)
        terminal.restore()
        #expect(pty.slaveAttributes().bytes == before.bytes)
        #expect(!terminal.isInRawMode)
    }

    @Test func restoreIsIdempotentAndRawModeCanBeEnteredAgain() throws {
        let (pty, terminal) = try terminalOnNewPty()
        let before = pty.slaveAttributes()
        try terminal.enterRawMode()
        try terminal.enterRawMode()  // while raw: must not save the raw attributes as "original"
        terminal.restore()
        terminal.restore()
        #expect(pty.slaveAttributes().bytes == before.bytes)
        try terminal.enterRawMode()  // as after SIGCONT
        #expect(pty.slaveAttributes().c_lflag & tcflag_t(ICANON) == 0)
        terminal.restore()
        #expect(pty.slaveAttributes().bytes == before.bytes)
    }

    @Test func droppingTheTerminalRestoresIt() throws {
        let pty = try PseudoTerminal()
        let before = pty.slaveAttributes()
        do {
            let slave = pty.slave
            let terminal = Terminal(input: slave, output: slave)
            try terminal.enterRawMode()
            #expect(pty.slaveAttributes().bytes != before.bytes)
        }
        #expect(pty.slaveAttributes().bytes == before.bytes)
    }

    @Test func keysTypedBeforeRawModeAreKept() throws {
        let (pty, terminal) = try terminalOnNewPty()
        pty.typeOnMaster(Array("12".utf8))
        // The echo proves the line discipline holds the bytes before raw mode is entered.
        let echo = pty.readMaster(until: { contains($0, Array("12".utf8)) }, deadline: .seconds(5))
        #expect(contains(echo, Array("12".utf8)))
        try terminal.enterRawMode()
        #expect(terminal.read(timeout: .seconds(5)) == .bytes(Array("12".utf8)))
    }

    @Test func bracketedPasteIsEnabledAndAlwaysDisabledAgain() throws {
        let (pty, terminal) = try terminalOnNewPty()
        try terminal.enterRawMode()
        let enabled = pty.readMaster(until: { contains($0, bracketedPasteOn) }, deadline: .seconds(5))
        #expect(contains(enabled, bracketedPasteOn))
        terminal.restore()
        let disabled = pty.readMaster(until: { contains($0, bracketedPasteOff) }, deadline: .seconds(5))
        #expect(contains(disabled, bracketedPasteOff))
    }

    @Test func withoutBracketedPasteNoEscapeSequenceIsWritten() throws {
        let (pty, terminal) = try terminalOnNewPty()
        try terminal.enterRawMode(bracketedPaste: false)
        terminal.write("Code: ")
        terminal.restore()
        #expect(terminal.write("end"))
        let screen = pty.readMaster(until: { contains($0, Array("end".utf8)) }, deadline: .seconds(5))
        #expect(screen == Array("Code: end".utf8))
    }

    @Test func hiddenCursorAndColoursAreResetOnRestore() throws {
        let (pty, terminal) = try terminalOnNewPty()
        try terminal.enterRawMode()
        terminal.setCursorVisible(false)
        terminal.write("\u{1B}[1mbold")
        terminal.restore()
        let expected = Array("\u{1B}[?2004l\u{1B}[?25h\u{1B}[0m".utf8)
        let screen = pty.readMaster(until: { contains($0, expected) }, deadline: .seconds(5))
        #expect(contains(screen, expected))
    }

    /// kitty's disambiguate mode, once on, is off again with the restore, once, whatever ends the prompt.
    @Test func theKeyboardModeGoesOffWithTheRestore() throws {
        let (pty, terminal) = try terminalOnNewPty()
        try terminal.enterRawMode()
        terminal.askKeyboardProtocol()
        terminal.setKeyboardDisambiguation(true)
        terminal.setKeyboardDisambiguation(true)
        terminal.restore()
        terminal.restore()
        #expect(terminal.write("end"))
        let screen = pty.readMaster(until: { contains($0, Array("end".utf8)) }, deadline: .seconds(5))
        let expected = Array("\u{1B}[?2004h\u{1B}[?u\u{1B}[c\u{1B}[>1u\u{1B}[<u\u{1B}[?2004l".utf8)
        #expect(contains(screen, expected), "\(String(decoding: screen, as: UTF8.self).debugDescription)")
        #expect(screen.count == expected.count + "\u{1B}[?2004l".utf8.count + 3, "pushed once, popped once")
    }

    /// The restore that ends a prompt discards what was typed and not read, in the same step: what comes after is
    /// the next reader's, with the restored line discipline (here a cooked Enter).
    @Test func aRestoreDiscardingInputKeepsWhatComesAfter() throws {
        let (pty, terminal) = try terminalOnNewPty()
        try terminal.enterRawMode()
        pty.typeOnMaster(Array("secret tail".utf8))
        _ = pty.readMaster(until: { contains($0, bracketedPasteOn) }, deadline: .seconds(5))
        usleep(50_000)
        terminal.restore(discardingInput: true)
        pty.typeOnMaster(Array("ls\r".utf8))
        let after = Terminal(input: pty.slave, output: pty.slave)
        var read: [UInt8] = []
        while !read.contains(0x0A), case .bytes(let bytes) = after.read(timeout: .seconds(5)) { read += bytes }
        #expect(read == Array("ls\n".utf8))
    }

    /// The restore after an Esc that ended the prompt puts the keys read with it back in front of what is still
    /// queued, through the restored line discipline (a cooked Enter), up to a key that would raise a signal there;
    /// what is typed after the restore follows. TIOCSTI on a terminal that is not this process's own needs
    /// CAP_SYS_ADMIN: as root only, as CI runs.
    @Test(
        .enabled(if: geteuid() == 0, "TIOCSTI on a pty that is not the controlling terminal needs root"),
        arguments: [
            ("ech", "o hi\r", "", "echo hi\n"), ("ls\u{03}rm -r x\r", "", "\r", "ls\n"), ("", "pwd\r", "", "pwd\n"),
        ])
    func aRestoreGivingBackPutsTheKeysBackInOrder(givenBack: String, queued: String, typedAfter: String, read: String)
        throws
    {
        let (pty, terminal) = try terminalOnNewPty()
        try terminal.enterRawMode()
        _ = pty.readMaster(until: { contains($0, bracketedPasteOn) }, deadline: .seconds(5))
        pty.typeOnMaster(Array(queued.utf8))
        usleep(50_000)
        terminal.restore(givingBack: Array(givenBack.utf8))
        pty.typeOnMaster(Array(typedAfter.utf8))
        let after = Terminal(input: pty.slave, output: pty.slave)
        var bytes: [UInt8] = []
        while !bytes.contains(0x0A), case .bytes(let more) = after.read(timeout: .seconds(5)) { bytes += more }
        #expect(String(decoding: bytes, as: UTF8.self) == read)
    }

    @Test func columnsComeFromTheWindowSize() throws {
        let (pty, terminal) = try terminalOnNewPty()
        pty.resize(columns: 123, rows: 45)
        #expect(terminal.columns == 123)
        #expect(terminal.rows == 45)
        #expect(terminal.inputIsTerminal)
    }

    @Test func aPipeIsNotATerminal() throws {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { for end in ends { close(end) } }
        let terminal = Terminal(input: ends[0], output: ends[1])
        #expect(!terminal.inputIsTerminal)
        #expect(terminal.columns == nil)
        #expect(throws: HostError.self) { try terminal.enterRawMode() }
    }
}
