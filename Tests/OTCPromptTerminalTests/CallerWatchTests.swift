// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptHost
import OTCPromptTerminal
import OTCPromptTestSupport
import Testing

/// `Terminal.read(callerWatching:)` and `AssuanChannel`'s view of gpg-agent: a hang-up is seen at
/// once, and nothing of the caller's pipe is ever read by the wait.
@Suite struct CallerWatchTests {
    /// gpg-agent's two pipes as the pinentry holds them: its stdin's read end, its stdout's write end,
    /// and the agent's ends, which the test writes and closes.
    final class AgentPipes {
        let pinentryInput: Int32
        private(set) var agentOutput: Int32
        private(set) var agentInput: Int32
        let pinentryOutput: Int32

        init() {
            var toPinentry: [Int32] = [-1, -1]
            var fromPinentry: [Int32] = [-1, -1]
            _ = pipe(&toPinentry)
            _ = pipe(&fromPinentry)
            // Not inherited by what tests running in parallel spawn, which would hold an end open.
            for end in toPinentry + fromPinentry { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            (pinentryInput, agentOutput) = (toPinentry[0], toPinentry[1])
            (agentInput, pinentryOutput) = (fromPinentry[0], fromPinentry[1])
        }

        deinit {
            for descriptor in [pinentryInput, agentOutput, agentInput, pinentryOutput] where descriptor >= 0 {
                close(descriptor)
            }
        }

        /// The agent goes (or stops writing): its end of the pinentry's stdin is closed once.
        func closeAgentOutput() {
            close(agentOutput)
            agentOutput = -1
        }

        /// The agent stops reading: its end of the pinentry's stdout is closed once.
        func closeAgentInput() {
            close(agentInput)
            agentInput = -1
        }

        var caller: [Int32] { [pinentryInput, pinentryOutput] }
    }

    private func terminal() throws -> (PseudoTerminal, Terminal) {
        let pty = try PseudoTerminal()
        let terminal = Terminal(input: pty.slave, output: pty.slave)
        try terminal.enterRawMode()
        return (pty, terminal)
    }

    @Test func aLiveCallerIsWaitedBesideAndKeysStillArrive() throws {
        let (pty, terminal) = try terminal()
        // The pty must outlive the terminal over its descriptors, or their numbers go to the pipes below.
        defer { withExtendedLifetime(pty) {} }
        let agent = AgentPipes()
        #expect(terminal.read(timeout: .milliseconds(30), callerWatching: agent.caller) == .timedOut)
        pty.typeOnMaster([0x39])
        #expect(terminal.read(timeout: .seconds(5), callerWatching: agent.caller) == .bytes([0x39]))
    }

    @Test func theCallersEndOfInputWinsOverKeysWaitingAndNeitherIsRead() throws {
        let (pty, terminal) = try terminal()
        // The pty must outlive the terminal over its descriptors, or their numbers go to the pipes below.
        defer { withExtendedLifetime(pty) {} }
        let agent = AgentPipes()
        pty.typeOnMaster(Array("ls -la\r".utf8))
        _ = Array("NOP\n".utf8).withUnsafeBytes { write(agent.agentOutput, $0.baseAddress, $0.count) }
        agent.closeAgentOutput()
        #expect(terminal.read(timeout: .seconds(5), callerWatching: agent.caller) == .callerGone)
        // What the caller sent and what was typed are both still there, unread.
        var byte = [UInt8](repeating: 0, count: 16)
        #expect(read(agent.pinentryInput, &byte, 16) == 4)
        #expect(terminal.read(timeout: .seconds(5)) == .bytes(Array("ls -la\r".utf8)))
    }

    @Test func theReaderOfTheCallersOutputGoneIsEnough() throws {
        let (pty, terminal) = try terminal()
        // The pty must outlive the terminal over its descriptors, or their numbers go to the pipes below.
        defer { withExtendedLifetime(pty) {} }
        let agent = AgentPipes()
        agent.closeAgentInput()
        #expect(terminal.read(timeout: .seconds(5), callerWatching: agent.caller) == .callerGone)
    }

    @Test func dataFromALiveCallerDoesNotWakeTheWait() throws {
        let (pty, terminal) = try terminal()
        // The pty must outlive the terminal over its descriptors, or their numbers go to the pipes below.
        defer { withExtendedLifetime(pty) {} }
        let agent = AgentPipes()
        _ = Array("NOP\n".utf8).withUnsafeBytes { write(agent.agentOutput, $0.baseAddress, $0.count) }
        #expect(terminal.read(timeout: .milliseconds(50), callerWatching: agent.caller) == .timedOut)
    }

    @Test func aCallerWithRequestsQueuedIsWatchedOnlyThroughItsOutput() {
        let agent = AgentPipes()
        let channel = AssuanChannel(input: agent.pinentryInput, output: agent.pinentryOutput)
        #expect(channel.callerDescriptors == agent.caller)
        #expect(!channel.callerHasGone)
        // A script piped in whole: the next request waits in the pipe and the writer has finished.
        _ = Array("BYE\n".utf8).withUnsafeBytes { write(agent.agentOutput, $0.baseAddress, $0.count) }
        agent.closeAgentOutput()
        #expect(channel.callerDescriptors == [agent.pinentryOutput])
        #expect(!channel.callerHasGone)
        #expect(channel.readLine(limit: 100) == .line(Array("BYE".utf8)))
        #expect(channel.callerDescriptors == agent.caller)
        #expect(channel.callerHasGone)
    }
}
