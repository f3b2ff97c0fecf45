// SPDX-License-Identifier: GPL-3.0-or-later
import OTCPromptTerminal
import OTCPromptTestSupport
import Testing

/// Terminal devices by path or number, as the session rule names them.
@Suite struct TerminalDevicesTests {
    @Test func aPseudoTerminalIsNamedFromItsNumber() throws {
        let pty = try PseudoTerminal()
        let path = pty.slaveName
        #expect(TerminalDevices.device(descriptor: pty.slave)?.path == path)
        let device = try #require(TerminalDevices.device(path: path))
        #expect(TerminalDevices.named(number: device.device)?.path == path)
        #expect(TerminalDevices.device(path: "/etc/passwd") == nil)
    }
}
