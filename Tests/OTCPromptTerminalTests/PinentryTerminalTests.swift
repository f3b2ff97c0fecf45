// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptHost
import OTCPromptTerminal
import OTCPromptTestSupport
import Testing

/// What the pinentry needs from the terminal and host modules: the named tty, the Assuan pipe, locked memory.
@Suite struct PinentryTerminalTests {
    @Test func theNamedTerminalIsOpenedAndRestoredExactly() throws {
        let pty = try PseudoTerminal()
        var before = termios()
        tcgetattr(pty.slave, &before)
        do {
            let terminal = try Terminal.open(path: pty.slaveName)
            #expect(terminal.inputIsTerminal && terminal.outputIsTerminal)
            try terminal.enterRawMode()
            pty.typeOnMaster([0x61])
            #expect(terminal.read(timeout: .seconds(5)) == .bytes([0x61]))
        }  // the terminal goes away here: restored and closed
        var after = termios()
        tcgetattr(pty.slave, &after)
        #expect(before.c_lflag == after.c_lflag && before.c_iflag == after.c_iflag && before.c_oflag == after.c_oflag)
    }

    @Test func aMissingOrNonTerminalPathIsReportedWithItsErrno() {
        #expect(throws: HostError.system(.noSuchFileOrDirectory, call: "open")) {
            try Terminal.open(path: "/nonexistent/tty")
        }
        #expect(throws: HostError.system(.inappropriateIOCTLForDevice, call: "isatty")) {
            try Terminal.open(path: "/dev/null")
        }
    }

    @Test func theChannelReadsLinesAndRefusesOneTooLong() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        let channel = AssuanChannel(input: fds[0], output: -1)
        let text = "NOP\nSETDESC a\r\n" + String(repeating: "x", count: 20) + "\n"
        _ = text.withCString { write(fds[1], $0, strlen($0)) }
        close(fds[1])
        #expect(channel.readLine(limit: 1002) == .line(Array("NOP".utf8)))
        #expect(channel.readLine(limit: 1002) == .line(Array("SETDESC a\r".utf8)))
        #expect(channel.readLine(limit: 20) == .tooLong)
        #expect(AssuanChannel(input: fds[0], output: -1).readLine(limit: 1002) == .closed)
    }

    @Test func lockedBytesAreWipedOnRequest() {
        let buffer = LockedBytes(count: 64)
        _ = buffer.bytes.initialize(from: Array("secret".utf8))
        buffer.wipe()
        #expect(buffer.bytes.allSatisfy { $0 == 0 })
    }
}
