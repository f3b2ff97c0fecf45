import Foundation
import Glibc
import OTCPromptSystem

/// A speech-dispatcher of the test's own (espeak-ng module, pulse output to a `PrivatePulseAudio`
/// null sink) on a private socket, run as a single process without D-Bus or systemd, stopped by
/// its PID: the user's speech server is never touched.
public final class PrivateSpeechDispatcher: @unchecked Sendable {
    public let directory: String
    public var socketPath: String { directory + "/speechd.sock" }
    /// What a client needs to reach this server: `SPEECHD_ADDRESS` and the private PulseAudio.
    public var clientEnvironment: [String: String] {
        pulse.clientEnvironment.merging(["SPEECHD_ADDRESS": "unix_socket:\(socketPath)"]) { $1 }
    }
    public let pulse: PrivatePulseAudio
    private let process: ChildProcess
    /// The server's process id (to stop it with SIGSTOP, as a hung server).
    public var processIdentifier: Int32 { process.pid }

    /// Whether speech-dispatcher and its espeak-ng module are installed (`make deps` installs them).
    public static var isInstalled: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/speech-dispatcher")
            && FileManager.default.fileExists(atPath: "/usr/lib/speech-dispatcher-modules/sd_espeak-ng")
            && FileManager.default.fileExists(atPath: "/etc/speech-dispatcher/speechd.conf")
    }

    private init(directory: String, pulse: PrivatePulseAudio, process: ChildProcess) {
        self.directory = directory
        self.pulse = pulse
        self.process = process
    }

    /// The server's own log (`SpeechDispatcherLog` reads it): with `logLevel` 5, every command and reply with
    /// the client's descriptor, which says who cancelled whom.
    public var logPath: String { directory + "/logs/speech-dispatcher.log" }

    /// Starts the server on `pulse` and waits (at most 10 s) until it answers on its socket; nil
    /// when it does not come up.
    public static func start(pulse: PrivatePulseAudio, logLevel: Int? = nil) -> PrivateSpeechDispatcher? {
        var template = Array("/tmp/otc-speechd-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else { return nil }
        let directory = String(cString: made)
        let configuration = directory + "/conf"
        do {
            try runToCompletion("/bin/cp", ["-r", "/etc/speech-dispatcher", configuration])
            try FileManager.default.createDirectory(atPath: directory + "/logs", withIntermediateDirectories: true)
            let settings = """

                AddModule "espeak-ng" "sd_espeak-ng" "espeak-ng.conf"
                DefaultModule espeak-ng
                AudioOutputMethod "pulse"
                \(logLevel.map { "LogLevel \($0)" } ?? "")

                """
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: configuration + "/speechd.conf"))
            handle.seekToEndOfFile()
            handle.write(Data(settings.utf8))
            try handle.close()
        } catch {
            return nil
        }
        // Spawned and reaped by its pid, not with Foundation's Process, whose isRunning and waitUntilExit wait for a
        // SIGCHLD that a test handling SIGCHLD itself takes from it (`runToCompletion`).
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer { close(null) }
        guard
            case .success(let pid) = PseudoTerminalProcess.spawn(
                executable: "/usr/bin/speech-dispatcher",
                arguments: [
                    "-s", "-t", "0", "-C", configuration, "-S", directory + "/speechd.sock", "-L",
                    directory + "/logs", "-P", directory + "/speechd.pid",
                ],
                environment: pulse.clientEnvironment.merging(["HOME": directory, "XDG_RUNTIME_DIR": directory]) {
                    $1
                }, terminalPath: nil, standardInputIsTerminal: false, standardOutput: null, standardError: null)
        else { return nil }
        let process = ChildProcess(pid: pid)
        let server = PrivateSpeechDispatcher(directory: directory, pulse: pulse, process: process)
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, process.isRunning {
            if server.answers() { return server }
            usleep(20_000)
        }
        server.stop()
        return nil
    }

    /// Whether a client connecting now gets an SSIP answer (`GET OUTPUT_MODULE`) within 1 s.
    public func answers() -> Bool {
        guard let connection = try? SSIPTestClient(path: socketPath) else { return false }
        return (try? connection.request("GET OUTPUT_MODULE").hasPrefix("251")) ?? false
    }

    /// Kills the server at once (SIGKILL: as a crash), for the tests of a server that goes away.
    public func kill() {
        if process.isRunning { Glibc.kill(process.pid, SIGKILL) }
        process.waitUntilExit()
    }

    /// Stops the server by its PID and removes its directory. The PulseAudio is the caller's.
    public func stop() {
        if process.isRunning { Glibc.kill(process.pid, SIGTERM) }
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning { Glibc.kill(process.pid, SIGKILL) }
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// A minimal SSIP client for tests: plays a second client (a screen reader) or checks the server.
/// Each read waits at most 5 s.
public final class SSIPTestClient: @unchecked Sendable {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    /// The events (7xx) received so far, each as "CODE MSG_ID" (e.g. "703 12"), in order.
    public private(set) var events: [String] = []
    private var eventLines: [String] = []

    public init(path: String) throws {
        guard let address = UnixSocketAddress(path: path) else { throw POSIXError(.ENAMETOOLONG) }
        let connection = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let result = address.withSocketAddress { connect(connection, $0, $1) }
        // Refused before the client is whole: a whole one's deinit would close the socket a second time, when its
        // number may already be another test's new descriptor (a pty, a socket).
        guard result == 0 else {
            let failure = errno
            close(connection)
            throw POSIXError(POSIXErrorCode(rawValue: failure) ?? .EIO)
        }
        descriptor = connection
    }

    deinit { close(descriptor) }

    /// Sends `line` and returns the reply's lines (status last), joined by newlines.
    @discardableResult
    public func request(_ line: String) throws -> String {
        try send(line + "\r\n")
        return try reply()
    }

    /// Speaks `text` (at the connection's priority) and returns the 225 reply.
    @discardableResult
    public func speak(_ text: String) throws -> String {
        try request("SPEAK")
        try send(text + "\r\n.\r\n")
        return try reply()
    }

    private func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        guard write(descriptor, bytes, bytes.count) == bytes.count else { throw POSIXError(.EPIPE) }
    }

    /// Reads until an event whose line starts with `prefix` (e.g. "703") has arrived, at most 5 s.
    public func waitForEvent(_ prefix: String) -> Bool {
        while !events.contains(where: { $0.hasPrefix(prefix) }) {
            guard (try? readLine()).map(noteIfEvent) != nil else { return false }
        }
        return true
    }

    /// Keeps an event's lines; returns whether `line` belonged to one.
    @discardableResult
    private func noteIfEvent(_ line: String) -> Bool {
        guard line.hasPrefix("7") else { return false }
        eventLines.append(line)
        if line.count >= 4, Array(line)[3] == " " {
            let id = eventLines.first.map { String($0.dropFirst(4)) } ?? ""
            events.append(String(line.prefix(3)) + " " + id)
            eventLines = []
        }
        return true
    }

    /// The next reply that is not an event (7xx).
    private func reply() throws -> String {
        var lines: [String] = []
        while true {
            let line = try readLine()
            if noteIfEvent(line) { continue }
            lines.append(line)
            if line.count >= 4, Array(line)[3] == " " { return lines.joined(separator: "\n") }
        }
    }

    private func readLine() throws -> String {
        while true {
            if let newline = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line.hasSuffix("\r") ? String(line.dropLast()) : line
            }
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 5000) > 0 else { throw POSIXError(.ETIMEDOUT) }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = read(descriptor, &chunk, chunk.count)
            guard count > 0 else { throw POSIXError(.ECONNRESET) }
            buffer += chunk[0..<count]
        }
    }
}
