import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// How a child ended (Testing has a type of the same name).
typealias ExitStatus = OTCPromptTestSupport.ExitStatus

/// Whether this process may create users, start sshd and make device nodes (CI runs as root).
let runningAsRoot = getuid() == 0
/// Why the real-client tests are skipped otherwise, shown by `swift test`.
let needsRoot: Comment =
    "needs root: these tests create a throwaway user, a sudoers drop-in, a PAM service and an sshd (CI runs as root)"

/// A private directory for one test, removed with everything in it when the test ends.
///
/// It is world-searchable (0755) so that the throwaway user can reach its home and the askpass
/// wrappers inside it; nothing secret is kept in it except the files the test itself creates.
final class ScratchDirectory {
    let path: String

    init() throws {
        var template = Array((NSTemporaryDirectory() + "/otc-login-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw HarnessError("mkdtemp: \(String(cString: strerror(errno)))") }
        path = String(cString: made)
        chmod(path, 0o755)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// `name` inside the directory.
    func file(_ name: String) -> String { path + "/" + name }

    /// A private XDG_RUNTIME_DIR (mode 0700, owned by `owner`, root by default), so that what otc-prompt
    /// keeps between calls stays in the test's directory, never in the machine's
    /// /tmp/otc-prompt-UID fallback.
    func runtimeDirectory(named name: String = "runtime", owner: uid_t = 0, group: gid_t = 0) throws -> String {
        let path = file(name)
        guard mkdir(path, 0o700) == 0, chown(path, owner, group) == 0 else {
            throw HarnessError("mkdir \(path): \(String(cString: strerror(errno)))")
        }
        return path
    }

    /// Writes `text` to `name` with `mode` and returns its path.
    @discardableResult
    func write(_ name: String, _ text: String, mode: mode_t = 0o644) throws -> String {
        let path = file(name)
        // Created with its final mode (never readable by others first), and never through a symlink.
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw HarnessError("create \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        fchmod(descriptor, mode)  // the umask may have taken bits away
        let bytes = Array(text.utf8)
        guard bytes.withUnsafeBytes({ Glibc.write(descriptor, $0.baseAddress, $0.count) }) == bytes.count else {
            throw HarnessError("write \(path)")
        }
        return path
    }
}

/// A harness step failed (a server did not start, a command failed): the test cannot go on.
struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The result of a short command run without a terminal.
struct CommandResult {
    var status: ExitStatus?
    var output: String
    var error: String
}

/// Runs `arguments` (argv[0] a path) with no terminal, waits at most `deadline`, and returns what it printed.
/// A command still running at the deadline is killed (the harness's deinit) and reported with a nil status.
@discardableResult
func runCommand(
    _ arguments: [String],
    environment: [String: String] = ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8"],
    deadline: Duration = .seconds(20)
) throws -> CommandResult {
    let process = try PseudoTerminalProcess(
        executable: arguments[0], arguments: Array(arguments.dropFirst()), environment: environment, terminal: false)
    let status = process.waitForExit(deadline: deadline)
    return CommandResult(status: status, output: process.standardOutput, error: process.standardErrorText)
}

/// Runs `arguments` and throws unless it exits 0.
func runChecked(_ arguments: [String], deadline: Duration = .seconds(20)) throws {
    let result = try runCommand(arguments, deadline: deadline)
    guard result.status == .exited(0) else {
        throw HarnessError("\(arguments.joined(separator: " ")): \(String(describing: result.status)) \(result.error)")
    }
}

/// A TCP port on 127.0.0.1 that was free a moment ago (the kernel picks it).
func freeLocalPort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw HarnessError("socket") }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
        }
    }
    guard bound else { throw HarnessError("bind 127.0.0.1:0") }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// A server started on a port of 127.0.0.1 that `freeLocalPort` found free: started again on another when it
/// could not have it. A port is free only when it is asked for; another test's server (or a client's own
/// ephemeral port) may take it before this one binds, and a check that only connects would then be answered by
/// that other server. So the port must be listened on by `server`'s own process, found in /proc.
func startListening(
    _ what: String, attempts: Int = 5, deadline: Duration = .seconds(10),
    _ start: (_ port: Int) throws -> PseudoTerminalProcess
) throws -> (port: Int, server: PseudoTerminalProcess) {
    var failures: [String] = []
    for _ in 0..<attempts {
        let port = try freeLocalPort()
        let server = try start(port)
        let listening = waitUntil(deadline: deadline) {
            processListens(server.processID, port: port) || server.hasExited
        }
        if listening && !server.hasExited { return (port, server) }
        server.sendSignal(SIGTERM)
        _ = server.waitForExit(deadline: .seconds(5))
        failures.append("port \(port): \(server.standardErrorText)")
    }
    throw HarnessError("\(what) did not listen: \(failures.joined(separator: "; "))")
}

/// Whether process `pid` holds a socket listening on TCP port `port` (IPv4 or IPv6), from /proc/net/tcp{,6} and
/// the process's descriptors.
func processListens(_ pid: pid_t, port: Int) -> Bool {
    let hexPort = ":" + String(port, radix: 16, uppercase: true).leftPadded(to: 4)
    var inodes: Set<String> = []
    for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
        guard let text = try? String(contentsOfFile: table, encoding: .utf8) else { continue }
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ")
            // local_address, rem_address, st (0A: LISTEN), ..., inode is the tenth field.
            guard fields.count > 9, fields[1].hasSuffix(hexPort), fields[3] == "0A" else { continue }
            inodes.insert(String(fields[9]))
        }
    }
    guard !inodes.isEmpty, let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")
    else { return false }
    return descriptors.contains { descriptor in
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(descriptor)")
        else { return false }
        return target.hasPrefix("socket:[") && inodes.contains(String(target.dropFirst(8).dropLast()))
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}

/// Waits (bounded) until `condition` holds.
@discardableResult
func waitUntil(deadline: Duration, _ condition: () -> Bool) -> Bool {
    let clock = ContinuousClock()
    let end = clock.now + deadline
    while clock.now < end {
        if condition() { return true }
        usleep(20_000)
    }
    return condition()
}

/// A random suffix for names that must not collide with anything on the machine: [a-z0-9], 8 characters.
func uniqueSuffix() -> String {
    let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
    return String((0..<8).map { _ in alphabet.randomElement()! })
}
