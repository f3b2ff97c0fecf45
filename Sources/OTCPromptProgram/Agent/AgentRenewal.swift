// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptHost
import OTCPromptSystem
import OTCPromptTerminal

/// The password agent gives back what its voice loaded. espeak-ng's audio libraries (libpulse and the
/// twenty-odd it pulls in, ~5 MiB resident) are linked NODELETE: once loaded, nothing short of a new image of the
/// process unmaps them. So once the agent's wait has been heard and its voice let go, the agent executes itself
/// again, the same program with the same arguments: its terminal stays in raw mode all along (a key typed
/// meanwhile is neither echoed nor lost), its directories' watch stays open (a request arriving meanwhile waits in
/// the kernel's queue), and the signals it handles stay blocked until the new image handles them. The new image
/// loads no voice until a request or a key comes.
///
/// What passes between the two images is this value, in one environment variable that the new image removes
/// before anything could inherit it. Nothing in it is believed on its word: it names the process (exec keeps the
/// PID), and a renewal must prove it comes from the agent executing itself (`RenewalProof`: the name it was executed
/// under and a nonce in a pipe only the previous image held), so a value set by hand, or inherited from another
/// agent, is ignored; the terminal is confirmed raw with `tcgetattr` (`Terminal.reassertRawMode`), and the watch is
/// taken only if it watches exactly the agent's directories (`watch(covering:)`).
public struct AgentRenewal: Sendable {
    /// The variable that carries the renewal to the new image.
    public static let variable = "OTC_PROMPT_AGENT_RENEWAL"
    /// The terminal's attributes before raw mode: what the agent puts back when it ends.
    public let original: termios
    /// Whether bracketed paste is on, so that the end turns it off.
    public let bracketedPaste: Bool
    /// The inotify descriptor of the directories' watch (`DirectoryWatch(adopting:paths:)`); nil when the one
    /// handed over is not one (then the new image watches afresh and reads the directories again).
    public let watch: Int32?
    /// Which of the agent's places the previous image watched, in order: one it watched and this one cannot is news;
    /// one it could not watch either was said already.
    public let watched: [Bool]
    /// Which places were gone, their return awaited (`DirectoryWatch.awaitReturn`): said already, awaited still.
    public let awaited: [Bool]
    /// The process the renewal is for.
    let process: Int32
    /// What shows the previous image made it.
    let proof: RenewalProof?

    init(
        original: termios, bracketedPaste: Bool, watch: Int32?, watched: [Bool], awaited: [Bool] = [],
        process: Int32 = getpid(), proof: RenewalProof? = nil
    ) {
        self.original = original
        self.bracketedPaste = bracketedPaste
        self.watch = watch
        self.watched = watched
        self.awaited = awaited
        self.process = process
        self.proof = proof
    }

    /// The renewal handed to this process, if any: read and removed from the environment. Signals blocked for the
    /// exec stay blocked until `resumeSignals()`, once the new signal watcher is installed; when the value is no
    /// renewal, they are let through at once (a forged one blocked nothing; a real one that failed its proof must
    /// not leave them blocked for good).
    public static func take() -> AgentRenewal? {
        guard let value = getenv(variable).map({ String(cString: $0) }) else { return nil }
        unsetenv(variable)
        guard let renewal = forThisProcess(value, executedAs: RenewalProof.executedFileName) else {
            var blocked = promptSignalSet
            _ = pthread_sigmask(SIG_UNBLOCK, &blocked, nil)
            return nil
        }
        // Executed as /proc/self/exe, the process would be named "exe" in ps and top: it keeps its own name.
        if let name = CommandLine.arguments.first?.split(separator: "/").last {
            let comm = SystemCall.retrying("open") { open("/proc/self/comm", O_WRONLY | O_CLOEXEC) }
            if comm >= 0 {
                var bytes = Array(name.utf8.prefix(15))
                _ = write(comm, &bytes, bytes.count)
                close(comm)
            }
        }
        return renewal
    }

    /// The renewal `value` describes, when it is one of this process's, made by the image that executed this one
    /// under `executedAs` (`RenewalProof.holds`). The proof's pipe is closed either way; a watch handed with a value
    /// that is no renewal is left as it is.
    static func forThisProcess(_ value: String, executedAs: String?) -> AgentRenewal? {
        guard let renewal = parse(value), renewal.process == getpid() else { return nil }
        guard let proof = renewal.proof, proof.holds(executedAs: executedAs) else { return nil }
        return renewal
    }

    /// Whether the previous image watched the place at `index`.
    public func hadWatched(_ index: Int) -> Bool { index < watched.count && watched[index] }

    /// Whether the previous image awaited the return of the place at `index`.
    public func hadAwaited(_ index: Int) -> Bool { index < awaited.count && awaited[index] }

    /// "2:PID:WATCH:PASTE:PLACES:TERMIOS:FD.NONCE" (`encoded`), PLACES one digit a place (1 watched, 2 awaited, 0
    /// neither); nil when malformed. A watch descriptor that is not an inotify instance of this process's is dropped,
    /// not trusted.
    static func parse(_ value: String) -> AgentRenewal? {
        let fields = value.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 7, fields[0] == "2", let process = Int32(fields[1]), fields[3] == "0" || fields[3] == "1",
            fields[4].allSatisfy({ $0 == "0" || $0 == "1" || $0 == "2" }), let original = termiosFromHex(fields[5]),
            let proof = RenewalProof(fields[6])
        else { return nil }
        let watch = Int32(fields[2]).flatMap { isInotify($0) ? $0 : nil }
        return AgentRenewal(
            original: original, bracketedPaste: fields[3] == "1", watch: watch, watched: fields[4].map { $0 == "1" },
            awaited: fields[4].map { $0 == "2" }, process: process, proof: proof)
    }

    var encoded: String {
        var original = original
        let digits = Array("0123456789abcdef")
        let hex = withUnsafeBytes(of: &original) { bytes in
            String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] })
        }
        let places = String(
            watched.indices.map { watched[$0] ? "1" : ($0 < awaited.count && awaited[$0] ? "2" : "0") })
        let paste = bracketedPaste ? "1" : "0"
        return "2:\(process):\(watch.map(String.init) ?? "-"):\(paste):\(places):\(hex):\(proof?.encoded ?? "-")"
    }

    private static func termiosFromHex(_ hex: Substring) -> termios? {
        let bytes = Array(hex.utf8)
        guard bytes.count == MemoryLayout<termios>.size * 2 else { return nil }
        var value = termios()
        let complete = withUnsafeMutableBytes(of: &value) { raw -> Bool in
            for index in 0..<raw.count {
                guard let byte = UInt8(String(decoding: bytes[(2 * index)..<(2 * index + 2)], as: UTF8.self), radix: 16)
                else { return false }
                raw[index] = byte
            }
            return true
        }
        return complete ? value : nil
    }

    /// Whether `descriptor` is an inotify instance: `/proc/self/fd/N` reads "anon_inode:inotify".
    private static func isInotify(_ descriptor: Int32) -> Bool {
        guard descriptor > 2 else { return false }
        var buffer = [CChar](repeating: 0, count: 64)
        let count = readlink("/proc/self/fd/\(descriptor)", &buffer, buffer.count - 1)
        guard count > 0 else { return false }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) == "anon_inode:inotify"
    }

    /// Whether this process can execute itself again (`/proc` mounted); checked before the wait is arranged to end.
    public static var isPossible: Bool { access(RenewalProof.executable, X_OK) == 0 }

    /// Executes this program again with `arguments`, handing over `terminal` (in raw mode), `watch` and which of the
    /// places were `watched` or `awaited`. Returns only when that failed, with everything as it was (the caller goes
    /// on in this image). The corresponding C calls are `pthread_sigmask`, `raise`, `fcntl`, `setenv` and `execv`.
    public static func renew(
        terminal: Terminal, watch: DirectoryWatch, watched: [Bool], awaited: [Bool], arguments: [String]
    ) -> Errno {
        guard let handoff = terminal.rawModeHandoff else { return Errno(rawValue: EINVAL) }
        guard let proof = RenewalProof.make() else { return .current }
        let renewal = AgentRenewal(
            original: handoff.original, bracketedPaste: handoff.bracketedPaste, watch: watch.descriptor,
            watched: watched, awaited: awaited, proof: proof)
        // A signal arriving between the exec and the new image's handlers would meet the default action, which
        // ends the process with the terminal raw: held until the new image watches for it.
        var blocked = promptSignalSet
        var previous = sigset_t()
        _ = pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        // A signal already turned into a byte on the watcher's pipe (which closes on exec) is made pending again.
        while let signal = terminal.signalWatcher?.takePendingSignal() { _ = raise(signal) }
        _ = fcntl(watch.descriptor, F_SETFD, 0)
        setenv(variable, renewal.encoded, 1)
        var pointers = arguments.map { strdup($0) } + [nil]
        StandardError.handBackForExec()
        _ = execv(RenewalProof.executable, &pointers)
        let failure = Errno.current
        StandardError.separateAgain()
        for pointer in pointers { free(pointer) }
        unsetenv(variable)
        proof.discard()
        _ = fcntl(watch.descriptor, F_SETFD, FD_CLOEXEC)
        // Unblocked, the signals raised again reach the handler, and the pipe, as they had.
        _ = pthread_sigmask(SIG_SETMASK, &previous, nil)
        return failure
    }

    /// Lets the signals blocked for the exec arrive, now that the new image's watcher handles them.
    public func resumeSignals() {
        var blocked = Self.promptSignalSet
        _ = pthread_sigmask(SIG_UNBLOCK, &blocked, nil)
    }

    private static var promptSignalSet: sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in SignalWatcher.promptSignals { sigaddset(&set, signal) }
        return set
    }
}
