import Foundation
import Glibc

/// A brltty of the test's own, with its Virtual driver as the braille display (`VirtualDisplay`, the test's end of
/// the driver's socket), no screen driver, no speech and no alert tunes, and its BrlAPI server on a private TCP port
/// (or a local socket of brltty's directory). Everything it writes is in its own temporary directory (pid file,
/// writable and updatable directories, preferences); its configuration file is /dev/null. Stopped by its PID.
///
/// As root, brltty would load kernel modules (the PC speaker, uinput), join groups and unshare namespaces: it is
/// started with an empty capability bounding set, so none of that can touch the machine. `user` runs it as another
/// uid instead, a server that is not the prompt's user's.
public final class PrivateBrltty: @unchecked Sendable {
    public let directory: String
    /// BRLAPI_HOST for a client: `127.0.0.1:N`, or `:N` for a local socket.
    public let host: String
    public let display: VirtualDisplay
    private let process: ChildProcess
    /// The local socket brltty listens on, removed if brltty could not remove it itself.
    private let localPath: String?

    /// What a client needs to reach this server and find its tty shown: brltty has no screen here, and shows the
    /// client of virtual console 1, which `WINDOWPATH` names as a graphical session's would.
    public var clientEnvironment: [String: String] {
        ["BRLAPI_HOST": host, "BRLAPI_AUTH": "none", "WINDOWPATH": "1"]
    }

    /// Whether brltty with its Virtual driver, and libbrlapi, are installed (not by `make deps`: brltty's package
    /// enables a system service that claims braille and some USB serial devices).
    public static var isInstalled: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/brltty")
            && FileManager.default.fileExists(atPath: "/lib/brltty/libbrlttybvr.so")
            && FileManager.default.fileExists(atPath: "/usr/lib/x86_64-linux-gnu/libbrlapi.so.0.8")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
    }

    private init(
        directory: String, host: String, display: VirtualDisplay, process: ChildProcess, localPath: String?
    ) {
        self.localPath = localPath
        self.directory = directory
        self.host = host
        self.display = display
        self.process = process
    }

    /// Starts brltty with a display of `cells` cells and waits (at most 30 s: a loaded CI machine once took more
    /// than 10) until its display and its BrlAPI server answer; nil when it does not come up.
    /// - Parameters:
    ///   - user: run as this uid (and its group) instead of the caller's.
    ///   - localSocket: listen on /var/lib/BrlAPI/N (brltty's only directory) instead of TCP.
    public static func start(cells: Int = 40, user: UInt32? = nil, localSocket: Bool = false) -> PrivateBrltty? {
        var template = Array("/tmp/otc-brltty-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else { return nil }
        let directory = String(cString: made)
        if let user { chown(directory, user, user) }
        let number = freeServerNumber(localSocket: localSocket)
        let host = localSocket ? ":\(number)" : "127.0.0.1:\(number)"
        let socket = directory + "/display.sock"
        var arguments = user.map { ["--reuid=\($0)", "--regid=\($0)", "--clear-groups"] } ?? []
        arguments += ["--bounding-set=-all", "--inh-caps=-all", "--no-new-privs", "--", "/usr/bin/brltty"]
        arguments += [
            "-n", "-q", "-e", "-l", "warning", "-b", "vr", "-d", "server:" + socket, "-x", "no", "-s", "no",
            "-A", "auth=none,host=" + host, "-P", directory + "/brltty.pid", "-W", directory, "-U", directory,
            "-f", "/dev/null", "-F", directory + "/brltty.prefs", "-o", "alert-tunes=no",
        ]
        // Spawned with an empty signal mask (a test's thread may block SIGTERM, and brltty would inherit it).
        let log = open(directory + "/brltty.log", O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer {
            close(log)
            close(null)
        }
        guard
            case .success(let pid) = PseudoTerminalProcess.spawn(
                executable: "/usr/bin/setpriv", arguments: arguments,
                environment: ["PATH": "/usr/bin:/bin", "HOME": directory], terminalPath: nil,
                standardInputIsTerminal: false, standardOutput: null, standardError: log)
        else { return nil }
        let process = ChildProcess(pid: pid)
        let deadline = Date().addingTimeInterval(30)
        var display: VirtualDisplay?
        while display == nil, Date() < deadline, process.isRunning {
            display = VirtualDisplay(path: socket, cells: cells)
            if display == nil { usleep(20_000) }
        }
        let localPath = localSocket ? "/var/lib/BrlAPI/\(number)" : nil
        guard let display else {
            stop(process, directory: directory, localPath: localPath)
            return nil
        }
        let server = PrivateBrltty(
            directory: directory, host: host, display: display, process: process, localPath: localPath)
        while Date() < deadline, process.isRunning {
            if display.frame != nil && server.apiAnswers(number: number, localSocket: localSocket) { return server }
            usleep(20_000)
        }
        server.stop()
        return nil
    }

    /// Whether the BrlAPI server accepts a connection (one that is closed at once, before any handshake).
    private func apiAnswers(number: Int, localSocket: Bool) -> Bool {
        if localSocket { return FileManager.default.fileExists(atPath: "/var/lib/BrlAPI/\(number)") }
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(4101 + number).bigEndian)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// A server number no one uses: its TCP port (4101+N) can be bound, or its local socket does not exist.
    private static func freeServerNumber(localSocket: Bool) -> Int {
        while true {
            let number = Int.random(in: 3000...9000)
            if localSocket {
                if !FileManager.default.fileExists(atPath: "/var/lib/BrlAPI/\(number)") { return number }
                continue
            }
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(4101 + number).bigEndian)
            address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
            close(descriptor)
            if bound { return number }
        }
    }

    /// brltty's log (warnings and worse), for a failing test's message.
    public var log: String {
        (try? String(contentsOfFile: directory + "/brltty.log", encoding: .utf8)) ?? ""
    }

    /// Stops brltty by its PID (SIGTERM while its display is still connected: waiting for a display, brltty does not
    /// stop; then SIGKILL after 5 s), and removes its directory, and its local socket if brltty left it.
    public func stop() {
        Self.stop(process, directory: directory, localPath: localPath)
        display.disconnect()
    }

    private static func stop(_ process: ChildProcess, directory: String, localPath: String?) {
        if process.isRunning { kill(process.pid, SIGTERM) }
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        let killed = process.isRunning
        if killed { kill(process.pid, SIGKILL) }
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: directory)
        // Only a brltty killed outright leaves its socket behind.
        if killed, let localPath { unlink(localPath) }
    }
}

/// A child the test spawned, reaped once it has ended.
final class ChildProcess: @unchecked Sendable {
    let pid: pid_t
    private var ended = false

    init(pid: pid_t) { self.pid = pid }

    var isRunning: Bool {
        guard !ended else { return false }
        var status: Int32 = 0
        ended = waitpid(pid, &status, WNOHANG) == pid
        return !ended
    }

    func waitUntilExit() {
        guard !ended else { return }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        ended = true
    }
}
