// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptHost
import OTCPromptTerminal
import OTCPromptTestSupport
import Testing

/// Sends `signal` to the whole process, as kill(1) would. raise() would target the calling thread,
/// and the test runner's worker threads block most signals.
private func sendToThisProcess(_ signal: Int32) {
    kill(getpid(), signal)
}

/// Waits until the watcher's pipe holds `count` signals (FIONREAD), at most `deadline`.
private func waitForPendingSignals(_ count: Int32, on watcher: SignalWatcher, deadline: Duration) -> Bool {
    let clock = ContinuousClock()
    let end = clock.now.advanced(by: deadline)
    var pending: Int32 = 0
    while clock.now < end {
        if ioctl(watcher.descriptor, UInt(FIONREAD), &pending) == 0, pending >= count { return true }
        usleep(1000)
    }
    return false
}

/// One process has one watcher, and these tests change signal dispositions: they run one at a time.
@Suite(.serialized) struct SignalWatcherTests {
    private func handlerAddress(of signal: Int32) -> UInt {
        var action = sigaction()
        sigaction(signal, nil, &action)
        return unsafeBitCast(action.__sigaction_handler, to: UInt.self)
    }

    @Test func aRaisedSignalArrivesThroughTerminalRead() throws {
        let pty = try PseudoTerminal()
        let watcher = try SignalWatcher(signals: [SIGWINCH, SIGUSR1])
        let slave = pty.slave
        let terminal = Terminal(input: slave, output: slave, signalWatcher: watcher)
        try terminal.enterRawMode()
        sendToThisProcess(SIGWINCH)
        #expect(terminal.read(timeout: .seconds(5)) == .signal(SIGWINCH))
        #expect(terminal.read(timeout: .milliseconds(20)) == .timedOut)
    }

    @Test func signalsComeBeforeInputAndInOrder() throws {
        let pty = try PseudoTerminal()
        let watcher = try SignalWatcher(signals: [SIGWINCH, SIGUSR1])
        let slave = pty.slave
        let terminal = Terminal(input: slave, output: slave, signalWatcher: watcher)
        try terminal.enterRawMode()
        pty.typeOnMaster([0x35])
        // Wait until the key is readable, so the signal really competes with pending input.
        var ready = pollfd(fd: pty.slave, events: Int16(POLLIN), revents: 0)
        #expect(poll(&ready, 1, 5000) == 1)
        sendToThisProcess(SIGUSR1)
        #expect(waitForPendingSignals(1, on: watcher, deadline: .seconds(5)))
        sendToThisProcess(SIGWINCH)
        #expect(waitForPendingSignals(2, on: watcher, deadline: .seconds(5)))
        #expect(terminal.read(timeout: .seconds(5)) == .signal(SIGUSR1))
        #expect(terminal.read(timeout: .seconds(5)) == .signal(SIGWINCH))
        #expect(terminal.read(timeout: .seconds(5)) == .bytes([0x35]))
    }

    @Test func restoreDefaultsPutsBackTheDispositionsFound() throws {
        let before = handlerAddress(of: SIGUSR1)
        let watcher = try SignalWatcher(signals: [SIGUSR1])
        #expect(handlerAddress(of: SIGUSR1) != before)
        #expect(watcher.watchedSignals == [SIGUSR1])
        watcher.restoreDefaults()
        watcher.restoreDefaults()
        #expect(handlerAddress(of: SIGUSR1) == before)
    }

    @Test func anIgnoredSignalStaysIgnored() throws {
        signal(SIGUSR2, SIG_IGN)
        defer { signal(SIGUSR2, SIG_DFL) }
        let watcher = try SignalWatcher(signals: [SIGUSR1, SIGUSR2])
        #expect(watcher.watchedSignals == [SIGUSR1])
        #expect(handlerAddress(of: SIGUSR2) == 1)  // SIG_IGN
    }

    @Test func onlyOneWatcherAtATime() throws {
        let first = try SignalWatcher(signals: [SIGUSR1])
        #expect(throws: HostError.signalWatcherAlreadyInstalled) { try SignalWatcher(signals: [SIGUSR1]) }
        first.restoreDefaults()
        let second = try SignalWatcher(signals: [SIGUSR1])
        sendToThisProcess(SIGUSR1)
        #expect(waitForPendingSignals(1, on: second, deadline: .seconds(5)))
        #expect(second.takePendingSignal() == SIGUSR1)
        #expect(first.takePendingSignal() == nil)
    }

    /// A watcher refused because one is installed changes nothing of the installed one: it still hears its signals.
    @Test func aRefusedWatcherLeavesTheInstalledOneHearing() throws {
        let first = try SignalWatcher(signals: [SIGUSR1])
        defer { first.restoreDefaults() }
        #expect(throws: HostError.signalWatcherAlreadyInstalled) { try SignalWatcher(signals: [SIGUSR1]) }
        sendToThisProcess(SIGUSR1)
        #expect(waitForPendingSignals(1, on: first, deadline: .seconds(5)))
        #expect(first.takePendingSignal() == SIGUSR1)
    }

    @Test func sigpipeIsIgnoredSoWritesReturnEPIPE() throws {
        let watcher = try SignalWatcher(signals: [SIGUSR1])
        defer { watcher.restoreDefaults() }
        #expect(handlerAddress(of: SIGPIPE) == 1)  // SIG_IGN
    }
}
