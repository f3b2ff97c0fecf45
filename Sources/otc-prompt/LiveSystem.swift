import OTCPromptLoop
import OTCPromptTerminal

extension Terminal: PromptTerminal {
    public func readInput(timeout: Duration?, alsoWatching others: [Int32]) -> PromptInput {
        switch read(timeout: timeout, alsoWatching: others) {
        case .bytes(let bytes): .bytes(bytes)
        case .timedOut: .timedOut
        case .signal(let signal): .signal(signal)
        case .closed: .closed
        case .otherReady: .otherReady
        }
    }

    public func stopProcess() {
        signalWatcher?.stopProcess()
    }
}

extension CheckCommand: CheckProcess {
    public func verdict() -> CheckVerdict? {
        switch poll() {
        case .accepted: .accepted
        case .rejected(let status): .exited(status)
        case .killedBySignal(let signal): .killed(by: signal)
        case nil: nil
        }
    }
}

extension PromptSystem {
    /// The real terminal, the monotonic clock, `/bin/sh` checks and `mlock`.
    static func live(terminal: Terminal) -> PromptSystem {
        let clock = ContinuousClock()
        let origin = clock.now
        return PromptSystem(
            terminal: terminal, now: { clock.now - origin },
            startCheck: { command, code in try CheckCommand.start(command: command, input: code) },
            lockInMemory: { ProcessHardening.lockInMemory($0) })
    }
}
