import Foundation
import Glibc

/// Runs a program to completion and returns its standard output and error, read together.
@discardableResult
public func runToCompletion(
    _ program: String, _ arguments: [String], environment: [String: String]? = nil, captureOutput: Bool = true
) throws -> String {
    try runWithStatus(program, arguments, environment: environment, captureOutput: captureOutput).output
}

/// Runs a program to completion; its output (standard output and error together) and its wait status.
public func runWithStatus(
    _ program: String, _ arguments: [String], environment: [String: String]? = nil, captureOutput: Bool = true
) throws -> (output: String, status: Int32) {
    // Not Foundation's Process: its waitUntilExit learns of the exit from SIGCHLD, which a test that handles SIGCHLD
    // itself (a SignalWatcher's) takes from it, and it then waits for ever (a CI run hung 25 minutes so, in
    // PrivatePulseAudio.start, with no child left). waitpid on the child's own pid hears it whatever the signal does.
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { throw PseudoTerminalError("pipe") }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
    let output = captureOutput ? ends[1] : null
    let spawned = PseudoTerminalProcess.spawn(
        executable: program, arguments: arguments, environment: environment ?? ProcessInfo.processInfo.environment,
        terminalPath: nil, standardInputIsTerminal: false, standardOutput: output, standardError: output)
    close(ends[1])
    close(null)
    defer { close(ends[0]) }
    let pid: pid_t
    switch spawned {
    case .success(let spawnedPID): pid = spawnedPID
    case .failure(let error): throw error
    }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while captureOutput {
        let count = read(ends[0], &buffer, buffer.count)
        if count > 0 {
            bytes += buffer[..<count]
        } else if count == 0 || errno != EINTR {
            break
        }
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    return (String(decoding: bytes, as: UTF8.self), status)
}

/// A PulseAudio daemon of the test's own, with a null sink, on a private socket: other tests
/// on the machine keep seeing no audio server.
public struct PrivatePulseAudio: Sendable {
    public let directory: String
    public var server: String { "unix:\(directory)/native" }
    /// Only what reaches this server: merged into a prompt's environment, nothing of the test runner's own
    /// (its LANG, TERM, HOME, XDG_RUNTIME_DIR or SSH variables, which differ on CI) may override the run's.
    public var clientEnvironment: [String: String] {
        ["PULSE_SERVER": server, "PULSE_RUNTIME_PATH": directory, "PATH": "/usr/bin:/bin"]
    }

    /// Whether pulseaudio, parec and sox are installed (`make deps` installs them; CI always has them).
    public static var isInstalled: Bool {
        ["/usr/bin/pulseaudio", "/usr/bin/parec", "/usr/bin/sox"].allSatisfy(
            FileManager.default.isExecutableFile(atPath:))
    }

    /// The daemon's own log (`start(logging: true)`): each client and stream it created, by name.
    public var serverLog: String {
        (try? String(contentsOfFile: directory + "/server.log", encoding: .utf8)) ?? ""
    }

    /// Nil when pulseaudio, parec or sox is missing or the daemon does not come up.
    /// - Parameter logging: keep the daemon's log at info level in `serverLog`.
    public static func start(logging: Bool = false) -> PrivatePulseAudio? {
        let tools = ["/usr/bin/pulseaudio", "/usr/bin/parec", "/usr/bin/sox"]
        guard tools.allSatisfy(FileManager.default.isExecutableFile(atPath:)) else { return nil }
        var template = Array("/tmp/otc-pulse-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else { return nil }
        let pulse = PrivatePulseAudio(directory: String(cString: made))
        _ = try? runToCompletion(
            "/usr/bin/pulseaudio",
            [
                "--daemonize=yes", "--exit-idle-time=-1", "-n", "--use-pid-file=yes",
                "--load=module-null-sink sink_name=otc",
                "--load=module-native-protocol-unix socket=\(pulse.directory)/native",
            ] + (logging ? ["--log-target=file:\(pulse.directory)/server.log", "--log-level=info"] : []),
            environment: pulse.clientEnvironment.merging(["HOME": pulse.directory]) { $1 }, captureOutput: false)
        let deadline = Date().addingTimeInterval(5)
        while !FileManager.default.fileExists(atPath: pulse.directory + "/native"), Date() < deadline {
            usleep(20_000)
        }
        guard FileManager.default.fileExists(atPath: pulse.directory + "/native") else {
            pulse.stop()
            return nil
        }
        return pulse
    }

    /// Stops the daemon and removes its directory once it has exited: `pulseaudio -k` only signals it, and a
    /// daemon still shutting down writes its cookie into a directory removed under it (left behind for good).
    public func stop() {
        let pidText = try? String(contentsOfFile: directory + "/pid", encoding: .utf8)
        let daemon = pidText.flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        _ = try? runToCompletion(
            "/usr/bin/pulseaudio", ["-k"],
            environment: clientEnvironment.merging(["HOME": directory]) { $1 }, captureOutput: false)
        if let daemon, daemon > 0 {
            let deadline = Date().addingTimeInterval(5)
            while kill(daemon, 0) == 0, Date() < deadline { usleep(10_000) }
        }
        try? FileManager.default.removeItem(atPath: directory)
    }
}

extension PrivatePulseAudio {
    /// Records the null sink's monitor (s16le mono at `rate`) to `path` while `body` runs, then
    /// returns the recording's RMS amplitude as `sox stat` measures it. Recording starts once samples
    /// arrive; after `body` it goes on until the recording so far is louder than `heard` (the sound still
    /// on its way through the server), at most 10 s: a wait for the sound, not a guess at its length.
    public func recordingRMS(
        to path: String, rate: Int = 22050, heard: Double = 0.002, during body: () throws -> Void
    ) throws -> Double {
        let parec = try startRecording(to: path, rate: rate)
        defer { if parec.isRunning { kill(parec.processIdentifier, SIGKILL) } }
        try body()
        return try loudness(of: parec, recording: path, rate: rate, heard: heard)
    }

    /// The same for an async `body` (a test whose waits leave its thread to other tests).
    public func recordingRMS(
        to path: String, rate: Int = 22050, heard: Double = 0.002, during body: () async throws -> Void
    ) async throws -> Double {
        let parec = try startRecording(to: path, rate: rate)
        defer { if parec.isRunning { kill(parec.processIdentifier, SIGKILL) } }
        try await body()
        return try loudness(of: parec, recording: path, rate: rate, heard: heard)
    }

    /// Starts parec on the sink's monitor and waits until it records.
    private func startRecording(to path: String, rate: Int) throws -> Process {
        let parec = Process()
        parec.executableURL = URL(fileURLWithPath: "/usr/bin/parec")
        // A short fragment: by default parec delivers in ~2 s blocks, and stopping it loses the last.
        parec.arguments = [
            "-d", "otc.monitor", "--format=s16le", "--rate=\(rate)", "--channels=1", "--latency-msec=20", path,
        ]
        parec.environment = clientEnvironment
        try parec.run()
        // The null sink plays silence while idle: samples in the file mean parec is recording.
        let deadline = Date().addingTimeInterval(10)
        while Self.samples(in: path).isEmpty, parec.isRunning, Date() < deadline { usleep(10_000) }
        return parec
    }

    /// Once the body has run: waits until the recording is louder than `heard`, stops parec, measures it.
    private func loudness(of parec: Process, recording path: String, rate: Int, heard: Double) throws -> Double {
        var deadline = Date().addingTimeInterval(10)
        while Self.rms(Self.samples(in: path)) <= heard, parec.isRunning, Date() < deadline { usleep(20_000) }
        parec.terminate()
        deadline = Date().addingTimeInterval(1)
        while parec.isRunning, Date() < deadline { usleep(20_000) }
        let statistics = try runToCompletion(
            "/usr/bin/sox", ["-t", "raw", "-r", "\(rate)", "-e", "signed", "-b", "16", "-c", "1", path, "-n", "stat"])
        let line = statistics.split(separator: "\n").first { $0.hasPrefix("RMS     amplitude") }
        return line.flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0
    }

    /// The s16le samples recorded in `path` so far (none if it does not exist yet).
    static func samples(in path: String) -> [Int16] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        return data.withUnsafeBytes { bytes in
            (0..<bytes.count / 2).map {
                Int16(littleEndian: bytes.loadUnaligned(fromByteOffset: $0 * 2, as: Int16.self))
            }
        }
    }

    /// The RMS amplitude of `samples`, full scale 1, as `sox stat` gives it.
    static func rms(_ samples: [Int16]) -> Double {
        guard !samples.isEmpty else { return 0 }
        let sum = samples.reduce(0.0) { $0 + Double($1) * Double($1) }
        return (sum / Double(samples.count)).squareRoot() / 32768
    }
}
