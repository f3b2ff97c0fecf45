import Glibc
import OTCPromptCore
import OTCPromptHost
import OTCPromptSystem

/// polkit-agent-helper-1, which runs polkit's PAM conversation as root and tells polkitd when the password was
/// right: the socket service where polkit (127 and later) listens on `socketPath`, else the setuid program, the
/// user's name its argument and the cookie on its standard input (polkit 126 and earlier: Debian 12's 122).
///
/// Its lines are read here; what they mean is `PolkitHelperLine`'s and `PolkitConversation`'s. An answer is written
/// from locked memory and wiped at once; it is never logged.
final class PolkitHelper {
    static let socketPath = "/run/polkit/agent-helper.socket"
    static let programPath = "/usr/lib/polkit-1/polkit-agent-helper-1"
    /// A line longer than this is no line of the protocol: the helper is treated as broken.
    static let lineLimit = 64 * 1024

    /// The setuid program's; nil for the socket.
    private let pid: pid_t?
    private let input: Int32
    private let output: Int32
    private var buffer: [UInt8] = []

    private init(pid: pid_t?, input: Int32, output: Int32) {
        self.pid = pid
        self.input = input
        self.output = output
    }

    deinit { stop() }

    /// The helper for `user`'s password, given `cookie`.
    static func start(user: String, cookie: String) throws(PolkitAgentError) -> PolkitHelper {
        if access(socketPath, F_OK) == 0 { return try connect(user: user, cookie: cookie) }
        return try spawn(user: user, cookie: cookie)
    }

    /// The socket service: the user's name, then the cookie, each on a line.
    /// The corresponding C functions are `socket` and `connect`.
    private static func connect(user: String, cookie: String) throws(PolkitAgentError) -> PolkitHelper {
        guard let address = UnixSocketAddress(path: socketPath) else {
            throw .bus("cannot reach \(socketPath)", .fileNameTooLong)
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .bus("cannot reach \(socketPath)", Errno.current) }
        let connected = SystemCall.retrying("connect") { address.withSocketAddress { Glibc.connect(fd, $0, $1) } }
        guard connected == 0 else {
            let failure = Errno.current
            close(fd)
            throw .bus("cannot reach \(socketPath)", failure)
        }
        let helper = PolkitHelper(pid: nil, input: fd, output: fd)
        guard helper.write(Array("\(user)\n\(cookie)\n".utf8)) else {
            throw .bus("cannot write to \(socketPath)", Errno.current)
        }
        return helper
    }

    /// The setuid program, its standard error on /dev/null (its words are for a log, not the user's screen).
    /// The corresponding C functions are `pipe` and `posix_spawn`.
    private static func spawn(user: String, cookie: String) throws(PolkitAgentError) -> PolkitHelper {
        let toHelper: (read: Int32, write: Int32)
        let fromHelper: (read: Int32, write: Int32)
        do {
            toHelper = try SystemCall.wakeUpPipe()
            fromHelper = try SystemCall.wakeUpPipe()
        } catch {
            throw .bus("cannot make a pipe for \(programPath)", error.errno)
        }
        // Every end blocks: the helper's standard input and output are the same open files as ours, and a
        // non-blocking stdin makes its fgets fail at once (EAGAIN) while the user is still typing.
        for fd in [toHelper.read, toHelper.write, fromHelper.read, fromHelper.write] {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toHelper.read, 0)
        posix_spawn_file_actions_adddup2(&actions, fromHelper.write, 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A clean signal state: the prompt's blocked or ignored signals are not the helper's.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigfillset(&defaults)
        sigdelset(&defaults, SIGKILL)
        sigdelset(&defaults, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(programPath), strdup(user), nil]
        defer { for pointer in argv { free(pointer) } }
        let environment: [UnsafeMutablePointer<CChar>?] = [strdup("PATH=/usr/sbin:/usr/bin:/sbin:/bin"), nil]
        defer { for pointer in environment { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, programPath, &actions, &attributes, argv, environment)
        close(toHelper.read)
        close(fromHelper.write)
        guard spawned == 0 else {
            close(toHelper.write)
            close(fromHelper.read)
            throw .bus("cannot start \(programPath)", Errno(rawValue: spawned))
        }
        let helper = PolkitHelper(pid: pid, input: toHelper.write, output: fromHelper.read)
        guard helper.write(Array("\(cookie)\n".utf8)) else {
            throw .bus("cannot write to \(programPath)", Errno.current)
        }
        return helper
    }

    /// What came next: a line, the helper's end, or the request withdrawn (`withdrawal` hung up).
    enum Next {
        case line(PolkitHelperLine)
        case ended
        case withdrawn
    }

    /// The helper's next line, waiting with no timeout (PAM may wait for a finger or a key's touch) but ended at
    /// once when `withdrawal` hangs up. The corresponding C functions are `poll` and `read`.
    func next(withdrawal: Int32) -> Next {
        while true {
            if let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = PolkitHelperLine(buffer[..<end])
                buffer.removeSubrange(...end)
                return .line(line)
            }
            guard buffer.count < Self.lineLimit else { return .ended }
            var descriptors = [
                pollfd(fd: output, events: Int16(POLLIN), revents: 0),
                pollfd(fd: withdrawal, events: Int16(POLLIN), revents: 0),
            ]
            _ = SystemCall.retrying("poll") { poll(&descriptors, 2, -1) }
            if descriptors[1].revents != 0 { return .withdrawn }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { raw in
                SystemCall.retrying("read") { Glibc.read(output, raw.baseAddress, raw.count) }
            }
            guard count > 0 else { return .ended }
            buffer += chunk[..<count]
        }
    }

    /// The descriptor the helper's lines arrive on, for a watch while nothing is asked (`PolkitHelperWatch`).
    var descriptor: Int32 { output }

    /// Whether the helper has a line for us now or within `grace`: PAM's lines that come together (a message, then
    /// the question) are said together. The corresponding C function is `poll`.
    func speaks(within grace: Duration) -> Bool {
        if buffer.contains(UInt8(ascii: "\n")) { return true }
        var descriptor = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
        return SystemCall.retrying("poll") { poll(&descriptor, 1, grace.pollTimeout) } > 0
    }

    /// Writes the user's answer and a newline from locked memory, wiped right after; `secret` is wiped too.
    func answer(_ secret: SecretBytes) -> Bool {
        defer { secret.wipe() }
        let line = LockedBytes(count: secret.count + 1)
        secret.withUnsafeBytes { bytes in
            _ = UnsafeMutableRawBufferPointer(line.bytes).copyMemory(from: bytes)
        }
        line.bytes[secret.count] = UInt8(ascii: "\n")
        defer { line.wipe() }
        return write(UnsafeRawBufferPointer(line.bytes))
    }

    private func write(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { write($0) }
    }

    /// The corresponding C function is `write`.
    private func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = SystemCall.retrying("write") {
                Glibc.write(input, bytes.baseAddress! + offset, bytes.count - offset)
            }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    private var stopped = false

    /// Closes the pipes (or the socket) and ends the setuid program: SIGTERM, as polkit's own agents end it, then
    /// reaped; SIGKILL if it has not ended within `patience` (a PAM module that ignores the signal while it waits for
    /// a finger or a touch), so the next request is never stuck behind it. The corresponding C functions are
    /// `close`, `kill`, `waitpid` and `nanosleep`.
    func stop(patience: Duration = .seconds(2)) {
        guard !stopped else { return }
        stopped = true
        close(input)
        if output != input { close(output) }
        guard let pid else { return }
        _ = kill(pid, SIGTERM)
        var status: Int32 = 0
        let reaped = Polling.until(within: patience, every: .milliseconds(10)) {
            SystemCall.retrying("waitpid") { waitpid(pid, &status, WNOHANG) } != 0
        }
        guard reaped else {
            _ = kill(pid, SIGKILL)
            _ = SystemCall.retrying("waitpid") { waitpid(pid, &status, 0) }
            return
        }
    }
}
