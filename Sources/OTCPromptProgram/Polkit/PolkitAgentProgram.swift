import Glibc
import OTCPromptCore
import OTCPromptFrontEnds
import OTCPromptHost
import OTCPromptLoop
import OTCPromptSpeech
import OTCPromptSystem
import OTCPromptTerminal

/// `--polkit-agent`: polkit's authentication agent at this terminal. It registers with polkitd, then sleeps until a
/// request comes (`PolkitBus`); only then does it take the terminal, ask as every other caller's question is asked
/// (raw mode, the field, speech and braille), drive the helper (`PolkitHelper`) and put the terminal back as it was
/// at that moment: a shell that shares the terminal keeps it, and its keys, the rest of the time.
struct PolkitAgentProgram {
    /// The prompt the options describe; each field sets its own request.
    let template: PromptProgram
    let wording: PolkitWording
    /// `--process`: the one process whose requests are answered; the agent ends when it ends.
    let process: Int32?

    func run() -> Int32 {
        // Before any signal watcher: setting the terminal back after the shell took it back is never a stop.
        Terminal.neverStopForJobControl()
        let bus: PolkitBus
        let subject: PolkitSubject
        do {
            bus = try PolkitBus()
            subject = try Self.subject(process: process, functions: bus.functions)
            try bus.register(subject, locale: Self.locale(template.environment))
            try bus.start(endingWith: process.flatMap(ProcessLiveness.descriptor(of:)))
        } catch {
            StandardError.writeLine("otc-prompt: \(error)")
            return ExitStatus.usage
        }
        SpeechTrace.note("polkit-registered")
        while let pending = bus.next() {
            // The benchmarks' mark: the first sound is timed from here (`sample` in the trace).
            SpeechTrace.note("polkit-request")
            let result = authenticate(pending, bus: bus)
            bus.reply(pending, result.reply)
            close(pending.withdrawal.read)
            if let status = result.ending { return status }
        }
        // polkitd can no longer reach the agent: pkexec would fall back to its own agent, or fail, unheard.
        if bus.lostTheBus {
            StandardError.writeLine(
                "otc-prompt: the polkit agent ends: \(bus.endReason ?? "the system bus went away").")
            return ExitStatus.usage
        }
        return ExitStatus.submitted
    }

    /// How one request ended: polkitd's reply, and the agent's exit status when it ends with it (a signal).
    struct Ended {
        var reply: PolkitConversation.Result
        var ending: Int32? = nil
    }

    /// One BeginAuthentication, from the identity chosen to polkitd's reply. Asked only once the agent is in the
    /// terminal's foreground process group with its asker: the shell, waiting for the asker, reads nothing
    /// meanwhile; the terminal is put back, then the agent goes back to a group of its own.
    private func authenticate(_ pending: PolkitPending, bus: PolkitBus) -> Ended {
        var request = pending.request
        let asker = request.askingProcess.flatMap { ProcessTable.record(pid: $0)?.name }
        let terminal: Terminal
        do {
            terminal = try Terminal.open(signalWatcher: try SignalWatcher())
        } catch {
            SystemLog.warning("the polkit agent cannot ask: \(error)")
            return Ended(reply: .cancelled)
        }
        let place = Self.place(of: request, on: terminal, served: process)
        guard case .asked(let askerPID, let foreground) = place, terminal.joinForeground(foreground) else {
            terminal.leaveForeground()
            // Not read: the keys at this terminal are the shell's or its foreground program's.
            var refusal = "the terminal's foreground changed"
            if case .refused(let reason) = place { refusal = reason }
            let line = "the polkit agent cancelled \(request.actionID): \(refusal)"
            SystemLog.warning(line)
            StandardError.writeLine("otc-prompt: \(line).")
            return Ended(reply: .cancelled)
        }
        defer { terminal.leaveForeground() }
        if let caller = request.details["polkit.caller-pid"].flatMap(Int32.init),
            PolkitForeground.trustsPkexecCommandLine(
                caller: caller, asker: askerPID, effectiveUID: ProcessTable.effectiveUID(pid: caller),
                executable: ProcessTable.executable(pid: caller), name: ProcessTable.record(pid: caller)?.name),
            let argv = Self.arguments(of: caller)
        {
            request = request.withPkexecCommand(argv)
        }
        let asking = Asking(
            program: self, pending: pending, request: request, bus: bus, terminal: terminal, asker: asker)
        switch asking.chooseUser(request.users(invokingUID: getuid())) {
        case .user(let user): return asking.converse(as: user)
        case .ended(let ended): return ended
        }
    }

    /// The field for PAM's question: Esc replies Cancelled at once, before the cancellation is said.
    func field(_ configuration: PromptConfiguration, pending: PolkitPending, bus: PolkitBus) -> PromptProgram {
        var program = template
        program.request = Request(.field(configuration), typeAhead: .discarded(grace: ConfirmSession.grace))
        program.check = nil
        program.policy = .polkitAgent(withdrawal: pending.withdrawal.read) { bus.reply(pending, .cancelled) }
        return program
    }

    /// PAM's messages while the helper waits: ended when `watch` hangs up (the helper spoke) or the request is
    /// withdrawn; Esc replies Cancelled at once, as on a field.
    func notice(_ session: NoticeSession, pending: PolkitPending, bus: PolkitBus, watch: Int32) -> PromptProgram {
        var program = template
        program.request = .notice(session)
        program.check = nil
        program.policy = .polkitAgent(withdrawal: pending.withdrawal.read) { bus.reply(pending, .cancelled) }
        program.policy.caller.append(watch)
        return program
    }

    /// The yes/no question for one of several users.
    func question(_ session: ConfirmSession, pending: PolkitPending) -> PromptProgram {
        var program = template
        program.request = .question(session)
        program.check = nil
        program.policy = .polkitAgent(withdrawal: pending.withdrawal.read, declines: nil)
        return program
    }

    /// `--process PID`'s process with its start time; else the login session, else the parent process.
    static func subject(process: Int32?, functions: SDBusFunctions) throws(PolkitAgentError) -> PolkitSubject {
        if let process {
            guard let start = startTime(of: process) else { throw .noSubject("there is no process \(process)") }
            return .process(pid: UInt32(process), startTime: start)
        }
        var session: UnsafeMutablePointer<CChar>?
        if functions.pidGetSession(0, &session) >= 0, let session {
            defer { free(session) }
            return .session(String(cString: session))
        }
        let parent = getppid()
        guard let start = startTime(of: parent) else { throw .noSubject("no login session and no parent process") }
        return .process(pid: UInt32(parent), startTime: start)
    }

    /// A process's command line (`/proc/PID/cmdline`), nil when it cannot be read.
    static func arguments(of pid: Int32) -> [String]? {
        let fd = SystemCall.retrying("open") { open("/proc/\(pid)/cmdline", O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 8192)
        let count = bytes.withUnsafeMutableBytes { raw in
            SystemCall.retrying("read") { read(fd, raw.baseAddress, raw.count) }
        }
        guard count > 0 else { return nil }
        return bytes[..<count].split(separator: 0, omittingEmptySubsequences: false).dropLast().map {
            String(decoding: $0, as: UTF8.self)
        }
    }

    /// Whether `request` may take `terminal` (`PolkitForeground`): its asker and the foreground group it is in, or
    /// why not. The terminal is the agent's controlling one (/dev/tty, whose own device number names no terminal):
    /// its number is the agent's `tty_nr`, its session the agent's.
    /// The corresponding C functions are `tcgetpgrp` and `getsid`.
    static func place(of request: PolkitRequest, on terminal: Terminal, served: Int32?) -> Place {
        let foreground = SystemCall.retrying("tcgetpgrp") { tcgetpgrp(terminal.input) }
        guard foreground > 0 else { return .refused("the terminal has no foreground process group") }
        func process(_ pid: Int32) -> PolkitForeground.Process? {
            guard let fields = statFields(of: pid), fields.count > 4, let group = Int32(fields[2]),
                let terminal = Int64(fields[4])
            else { return nil }
            return .init(group: group, terminal: UInt64(bitPattern: terminal))
        }
        guard let own = process(getpid()), own.terminal != 0 else {
            return .refused("the agent has no controlling terminal")
        }
        let leader = SystemCall.retrying("getsid") { getsid(0) }
        if let refusal = PolkitForeground.refusal(
            of: request, terminal: own.terminal, foreground: foreground, served: served,
            leader: leader > 0 ? leader : nil, process: process)
        {
            return .refused(refusal)
        }
        guard let asker = PolkitForeground.asker(of: request, terminal: own.terminal, process: process) else {
            return .refused("the program that asks is not on this terminal")
        }
        return .asked(asker: asker.pid, foreground: foreground)
    }

    /// `place(of:on:served:)`'s answer.
    enum Place {
        case asked(asker: Int32, foreground: Int32)
        case refused(String)
    }

    /// Field 22 of /proc/PID/stat, the start time polkitd compares.
    static func startTime(of pid: Int32) -> UInt64? {
        guard let fields = statFields(of: pid), fields.count > 19 else { return nil }
        return UInt64(fields[19])
    }

    /// /proc/PID/stat's fields after the name (which may hold spaces): the state first.
    static func statFields(of pid: Int32) -> [String]? {
        let fd = SystemCall.retrying("open") { open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 1024)
        let count = bytes.withUnsafeMutableBytes { raw in
            SystemCall.retrying("read") { read(fd, raw.baseAddress, raw.count) }
        }
        guard count > 0, let close = bytes[..<count].lastIndex(of: UInt8(ascii: ")")) else { return nil }
        return bytes[(close + 1)..<count].split(separator: UInt8(ascii: " ")).map {
            String(decoding: $0, as: UTF8.self)
        }
    }

    /// The locale polkitd words the action's message in: the user's messages' locale.
    static func locale(_ environment: [String: String]) -> String {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = environment[name], !value.isEmpty { return value }
        }
        return "C"
    }

    /// The user's name for `uid`, nil when the password database has none. The corresponding C function is
    /// `getpwuid_r`.
    static func userName(_ uid: UInt32) -> String? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return String(cString: entry.pw_name)
    }
}

extension PromptPolicy {
    /// A polkit request: withdrawn when `withdrawal` hangs up (CancelAuthentication), a relay of this process's
    /// rather than a program waiting in its process group; each field puts the terminal back the moment it ends,
    /// giving back what was typed after an Esc, since Esc replies at once (`declines`) and the shell may be reading
    /// its next command while "cancelled" is still said. espeak-ng loads only once a request is asked.
    static func polkitAgent(withdrawal: Int32, declines: (() -> Void)?) -> PromptPolicy {
        var policy = PromptPolicy.plain
        policy.caller = [withdrawal]
        policy.callerIsInProcess = true
        policy.declines = declines
        policy.speculatesOnEspeak = false
        return policy
    }
}
