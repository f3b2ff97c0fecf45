// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptTerminal
import OTCPromptTestSupport
import Testing

@Suite struct TerminalReadTests {
    @Test func readReturnsTimedOutWhenNothingIsTyped() throws {
        let pty = try PseudoTerminal()
        let slave = pty.slave
        let terminal = Terminal(input: slave, output: slave)
        try terminal.enterRawMode()
        #expect(terminal.read(timeout: .milliseconds(50)) == .timedOut)
        #expect(terminal.read(timeout: .zero) == .timedOut)
    }

    @Test func readReturnsTypedBytesAsTheyArriveInRawMode() throws {
        let pty = try PseudoTerminal()
        let slave = pty.slave
        let terminal = Terminal(input: slave, output: slave)
        try terminal.enterRawMode()
        pty.typeOnMaster([0x03])  // Ctrl-C is a byte, not SIGINT, with ISIG off
        #expect(terminal.read(timeout: .seconds(5)) == .bytes([0x03]))
        pty.typeOnMaster([0x39, 0x0D])  // no ICRNL: Enter stays CR
        #expect(terminal.read(timeout: .seconds(5)) == .bytes([0x39, 0x0D]))
    }

    @Test func aHungUpTerminalReadsAsClosed() throws {
        // The slave is opened on its own so the pair's master can be closed (a terminal window closing).
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        #expect(master >= 0)
        var unlocked: Int32 = 0
        var number: UInt32 = 0
        #expect(ioctl(master, UInt(0x4004_5431), &unlocked) == 0)
        #expect(ioctl(master, UInt(0x8004_5430), &number) == 0)
        let slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY | O_CLOEXEC)
        #expect(slave >= 0)
        defer { close(slave) }
        let terminal = Terminal(input: slave, output: slave)
        try terminal.enterRawMode()
        close(master)
        #expect(terminal.read(timeout: .seconds(5)) == .closed)
        #expect(!terminal.write("gone"))
        terminal.restore()  // must not fail or hang on a dead terminal
    }

    @Test func endOfFileOnAPipeReadsAsClosed() throws {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        close(ends[1])
        let terminal = Terminal(input: ends[0], output: ends[0])
        #expect(terminal.read(timeout: .seconds(5)) == .closed)
    }
}
