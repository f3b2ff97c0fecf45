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
    let started = try SpawnedProgram(executable, arguments, input: input, environment: environment)
    return finish(started, status: started.waitForExit(deadline: deadline), deadline: deadline)
}

/// Runs a program to its end with `input` on stdin, bounded by `deadline`; its stdout, stderr and status. The task
/// is suspended between looks, so its thread runs other tests while gpg or gpg-agent works.
func runProgram(
    _ executable: String, _ arguments: [String], input: String = "", environment: [String: String],
    deadline: Duration = .seconds(60)
) async throws -> (output: String, error: String, status: Int32) {
    let started = try SpawnedProgram(executable, arguments, input: input, environment: environment)
    return finish(started, status: await started.waitForExit(deadline: deadline), deadline: deadline)
}

/// Ends a program still running at its deadline (recorded as an issue), then takes what it wrote: all of it, unless
/// a daemon it started still holds its output (gpg's agent), then what came within a moment.
private func finish(_ started: SpawnedProgram, status: Int32?, deadline: Duration)
    -> (output: String, error: String, status: Int32)
{
    var status = status
    if status == nil {
        Issue.record("\(started.description) did not finish within \(deadline)")
        started.terminate(SIGKILL)
        status = started.waitForExit(deadline: .seconds(5))
    }
    started.waitForOutput(deadline: .seconds(1))
    return (started.output, started.errors, status ?? -1)
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
