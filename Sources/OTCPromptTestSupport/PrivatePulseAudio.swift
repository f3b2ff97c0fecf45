import Foundation
import Glibc

/// Runs a program to completion and returns its standard output.
@discardableResult
public func runToCompletion(
    _ program: String, _ arguments: [String], environment: [String: String]? = nil, captureOutput: Bool = true
) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    if let environment { process.environment = environment }
    guard captureOutput else {
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return ""
    }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
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

    /// Nil when pulseaudio, parec or sox is missing or the daemon does not come up.
    public static func start() -> PrivatePulseAudio? {
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
            ], environment: pulse.clientEnvironment.merging(["HOME": pulse.directory]) { $1 }, captureOutput: false)
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
    /// returns the recording's RMS amplitude as `sox stat` measures it.
    public func recordingRMS(to path: String, rate: Int = 22050, during body: () throws -> Void) throws -> Double {
        let parec = Process()
        parec.executableURL = URL(fileURLWithPath: "/usr/bin/parec")
        // A short fragment: by default parec delivers in ~2 s blocks, and stopping it loses the last.
        parec.arguments = [
            "-d", "otc.monitor", "--format=s16le", "--rate=\(rate)", "--channels=1", "--latency-msec=20", path,
        ]
        parec.environment = clientEnvironment
        try parec.run()
        defer { if parec.isRunning { kill(parec.processIdentifier, SIGKILL) } }
        usleep(300_000)
        try body()
        usleep(300_000)
        parec.terminate()
        let deadline = Date().addingTimeInterval(1)
        while parec.isRunning, Date() < deadline { usleep(20_000) }
        let statistics = try runToCompletion(
            "/usr/bin/sox", ["-t", "raw", "-r", "\(rate)", "-e", "signed", "-b", "16", "-c", "1", path, "-n", "stat"])
        let line = statistics.split(separator: "\n").first { $0.hasPrefix("RMS     amplitude") }
        return line.flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0
    }
}
