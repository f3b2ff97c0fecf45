import OTCPromptCore
import OTCPromptLoop
import OTCPromptTerminal

extension Terminal: PromptTerminal {
    public var canStopProcess: Bool { signalWatcher?.canStopProcess ?? false }

    public func stopProcess() {
        signalWatcher?.stopProcess()
    }
}

extension CheckCommand: CheckProcess {
    public func verdict() -> CheckVerdict? { poll() }
}

extension PromptSystem {
    /// The real terminal, the monotonic clock, `/bin/sh` checks and `mlock`; with `caller` (gpg-agent's
    /// pipe), its hang-up ends the prompt and Ctrl-Z never stops the process.
    static func live(terminal: Terminal, caller: [Int32] = []) -> PromptSystem {
        let origin = MonotonicInstant.now
        return PromptSystem(
            terminal: terminal, now: { MonotonicInstant.now - origin },
            startCheck: { command, code in try CheckCommand.start(command: command, input: code) },
            lockInMemory: { ProcessHardening.lockInMemory($0) }, caller: caller,
            suspension: caller.isEmpty ? .asAJob : .refusedWhileCallerWaits)
    }
}
