import OTCPromptCore
import OTCPromptFrontEnds
import OTCPromptHost
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
    /// pipe), its hang-up ends the prompt and Ctrl-Z never stops the process, unless `stopsAsAJob` (a caller of
    /// the process's own, the password agent's relay).
    static func live(
        terminal: Terminal, caller: [Int32] = [], stopsAsAJob: Bool = false, outside: (any OutsideEvents)? = nil
    ) -> PromptSystem {
        let origin = MonotonicInstant.now
        return PromptSystem(
            terminal: terminal, now: { MonotonicInstant.now - origin },
            startCheck: { command, code in try CheckCommand.start(command: command, input: code) },
            lockInMemory: { ProcessHardening.lockInMemory($0) }, caller: caller,
            suspension: caller.isEmpty || stopsAsAJob ? .asAJob : .refusedWhileCallerWaits, outside: outside)
    }
}

/// The per-user state directory, as `AskMemory` keeps its records there.
extension StateDirectory: AskStore {
    public var callerProcess: Int32 { StateDirectory.parentProcess }
    public var now: Int64 { StateDirectory.secondsSinceBoot }
    public var thisLoginSession: String { StateDirectory.loginSession }
}

/// `AskMemory` by its name in the files that wire the voice, which do not import the front ends.
typealias AskMemory = OTCPromptFrontEnds.AskMemory
