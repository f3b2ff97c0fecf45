import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// Runs a program to its end with `input` on stdin, bounded by `deadline`; its stdout, stderr and status.
/// Synchronous, for a deinit's clean-up; tests await the async one.
func runProgram(
    _ executable: String, _ arguments: [String], input: String = "", environment: [String: String],
    deadline: Duration = .seconds(60)
) throws -> (output: String, error: String, status: Int32) {
    let started = try StartedProgram(executable, arguments, input: input, environment: environment)
    let clock = ContinuousClock()
    let end = clock.now + deadline
    while started.process.isRunning && clock.now < end { usleep(10_000) }
    started.end(deadline: deadline)
    usleep(50_000)
    return started.collect()
}

/// Runs a program to its end with `input` on stdin, bounded by `deadline`; its stdout, stderr and status. The task
/// is suspended between looks, so its thread runs other tests while gpg or gpg-agent works.
func runProgram(
    _ executable: String, _ arguments: [String], input: String = "", environment: [String: String],
    deadline: Duration = .seconds(60)
) async throws -> (output: String, error: String, status: Int32) {
    let started = try StartedProgram(executable, arguments, input: input, environment: environment)
    let clock = ContinuousClock()
    let end = clock.now + deadline
    while started.process.isRunning && clock.now < end { try? await Task.sleep(for: .milliseconds(10)) }
    started.end(deadline: deadline)
    try? await Task.sleep(for: .milliseconds(50))
    return started.collect()
}

/// A program started with its input written and its output collected as it comes, so a chatty child never blocks
/// on a full pipe; `end` ends it if it is still running.
private struct StartedProgram {
    let process = Process()
    let description: String
    private let stdout = Pipe()
    private let stderr = Pipe()
    private let collected = Collected()

    init(_ executable: String, _ arguments: [String], input: String, environment: [String: String]) throws {
        description = "\(executable) \(arguments)"
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        let stdin = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        let collected = collected
        stdout.fileHandleForReading.readabilityHandler = { collected.append(output: $0.availableData) }
        stderr.fileHandleForReading.readabilityHandler = { collected.append(error: $0.availableData) }
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
    }

    /// Ends a program still running at its deadline (recorded as an issue) and reaps it.
    func end(deadline: Duration) {
        if process.isRunning {
            process.terminate()
            Issue.record("\(description) did not finish within \(deadline)")
        }
        process.waitUntilExit()
    }

    /// What is left of its output once it ended (a moment after, for the last of it to come through the handlers).
    func collect() -> (output: String, error: String, status: Int32) {
        stdout.fileHandleForReading.readabilityHandler = nil
        stderr.fileHandleForReading.readabilityHandler = nil
        collected.append(output: stdout.fileHandleForReading.readDataToEndOfFile())
        collected.append(error: stderr.fileHandleForReading.readDataToEndOfFile())
        return (collected.output, collected.error, process.terminationStatus)
    }
}

private final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var outputData = Data()
    private var errorData = Data()
    func append(output data: Data) { lock.withLock { outputData.append(data) } }
    func append(error data: Data) { lock.withLock { errorData.append(data) } }
    var output: String { lock.withLock { String(decoding: outputData, as: UTF8.self) } }
    var error: String { lock.withLock { String(decoding: errorData, as: UTF8.self) } }
}

/// A throw-away GNUPGHOME (a short path under /tmp: gpg-agent's socket path is limited) with one
/// key, "Alice", protected by `passphrase`, and the built otc-prompt as its pinentry.
/// Its own gpg-agent is stopped (gpgconf --kill with this home only) and the home removed at the end.
/// The key is made once per test process (`KeyTemplate`) and each home holds a copy of it.
final class GnuPGHome {
    let path: String
    let speechLog: String
    static let passphrase = "corr%ect horse"

    init() async throws {
        path = try Self.makeDirectory()
        speechLog = path + "/speech.jsonl"
        // gpg-agent passes no options: a wrapper adds the speech mode and the log.
        let wrapper = path + "/pinentry"
        try writeExecutable(
            """
            #!/bin/sh
            exec "\(PromptRun.binary)" --pinentry --speech text --speech-log "\(speechLog)"

            """, to: wrapper)
        // From here on the agent must ask its pinentry: no loopback.
        try writeAgentConfiguration(loopback: false)
        let template = try await KeyTemplate.shared.value
        for item in KeyTemplate.items where FileManager.default.fileExists(atPath: template + "/" + item) {
            try FileManager.default.copyItem(atPath: template + "/" + item, toPath: path + "/" + item)
        }
        try "hello\n".write(toFile: path + "/message", atomically: true, encoding: .utf8)
    }

    /// A new 0700 directory with a short name under /tmp.
    static func makeDirectory() throws -> String {
        let path = "/tmp/otc-gpg-" + String(UUID().uuidString.prefix(8))
        try FileManager.default.createDirectory(
            atPath: path, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        return path
    }

    /// Alice's key, made once per test process (ed25519 with a cv25519 encryption subkey, both fast
    /// to make) in a home of its own whose agent is then stopped; removed when the process exits.
    /// Awaited: the tests that want it first wait for the one making it without holding a thread.
    enum KeyTemplate {
        /// What a home holds of the key: the keyring, the secret keys, the trust database.
        static let items = ["pubring.kbx", "private-keys-v1.d", "trustdb.gpg"]

        static let shared = Task<String, any Error> {
            let path = try GnuPGHome.makeDirectory()
            made = path
            atexit {
                if let path = GnuPGHome.KeyTemplate.made { try? FileManager.default.removeItem(atPath: path) }
            }
            let environment = PromptRun.environment(["GNUPGHOME": path])
            try "allow-loopback-pinentry\n".write(toFile: path + "/gpg-agent.conf", atomically: true, encoding: .utf8)
            func gpg(_ arguments: [String]) async throws -> (output: String, error: String, status: Int32) {
                try await runProgram("/usr/bin/gpg", ["--homedir", path] + arguments, environment: environment)
            }
            let created = try await gpg([
                "--batch", "--pinentry-mode", "loopback", "--passphrase", GnuPGHome.passphrase, "--quick-gen-key",
                "Alice <alice@example.org>", "ed25519", "sign", "never",
            ])
            #expect(created.status == 0, "key creation failed: \(created.error)")
            // An encryption subkey under the same passphrase, for the decryption test.
            let listed = try await gpg(["--batch", "--with-colons", "--list-keys", "alice@example.org"]).output
            let fingerprint =
                listed.split(separator: "\n").first { $0.hasPrefix("fpr:") }?
                .split(separator: ":", omittingEmptySubsequences: false).dropFirst(9).first.map(String.init) ?? ""
            let subkey = try await gpg([
                "--batch", "--pinentry-mode", "loopback", "--passphrase", GnuPGHome.passphrase, "--quick-add-key",
                fingerprint, "cv25519", "encr", "never",
            ])
            #expect(subkey.status == 0, "subkey creation failed: \(subkey.error)")
            _ = try await runProgram("/usr/bin/gpgconf", ["--kill", "gpg-agent"], environment: environment)
            return path
        }

        /// The template's directory once made, for the clean-up at exit (written once, before `atexit`).
        nonisolated(unsafe) static var made: String?
    }

    deinit {
        _ = try? runProgram("/usr/bin/gpgconf", ["--kill", "gpg-agent"], environment: environment)
        try? FileManager.default.removeItem(atPath: path)
    }

    var environment: [String: String] {
        PromptRun.environment(["GNUPGHOME": path])
    }

    /// Lines added to gpg-agent.conf ("enforce-passphrase-constraints"); the agent restarts with them.
    func addAgentOptions(_ options: [String]) async throws {
        try writeAgentConfiguration(loopback: false, options: options)
        _ = try await runProgram("/usr/bin/gpgconf", ["--kill", "gpg-agent"], environment: environment)
    }

    private func writeAgentConfiguration(loopback: Bool, options: [String] = []) throws {
        let lines = ["pinentry-program \(path)/pinentry"] + (loopback ? ["allow-loopback-pinentry"] : []) + options
        try (lines.joined(separator: "\n") + "\n").write(
            toFile: path + "/gpg-agent.conf", atomically: true, encoding: .utf8)
    }

    @discardableResult
    func gpg(_ arguments: [String]) async throws -> (output: String, error: String, status: Int32) {
        try await runProgram("/usr/bin/gpg", ["--homedir", path] + arguments, environment: environment)
    }

    /// A shell line that runs gpg on the pty with GPG_TTY naming it, as a user's shell profile does.
    func onTerminal(_ arguments: String) -> [String] {
        ["-c", "GPG_TTY=$(tty) exec gpg --homedir '\(path)' \(arguments)"]
    }

    /// The speech log's lines, as written.
    var spoken: String {
        (try? String(contentsOfFile: speechLog, encoding: .utf8)) ?? ""
    }
}
