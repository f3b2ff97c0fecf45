import OTCPromptCore
import OTCPromptLoop
import OTCPromptTerminal

extension Terminal: PromptTerminal {
    public func stopProcess() {
        signalWatcher?.stopProcess()
    }
}

extension CheckCommand: CheckProcess {
    public func verdict() -> CheckVerdict? { poll() }
}

extension PromptSystem {
    /// The real terminal, the monotonic clock, `/bin/sh` checks and `mlock`.
    static func live(terminal: Terminal) -> PromptSystem {
        let origin = MonotonicInstant.now
        return PromptSystem(
            terminal: terminal, now: { MonotonicInstant.now - origin },
            startCheck: { command, code in try CheckCommand.start(command: command, input: code) },
            lockInMemory: { ProcessHardening.lockInMemory($0) })
    }
}
