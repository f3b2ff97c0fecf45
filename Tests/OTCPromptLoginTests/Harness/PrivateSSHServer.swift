import Foundation
import Glibc
import OTCPromptTestSupport

/// An sshd on a private port of 127.0.0.1 with its own host key, config, pid file and PAM service.
///
/// OpenSSH names its PAM service after the name it was run as (`__progname`), so sshd is run through a
/// symlink with a unique name, and the PAM service is a new file of that name in /etc/pam.d: the system's
/// own /etc/pam.d/sshd is never read or changed. The stack asks for a TOTP code first
/// (libpam-google-authenticator, only for a user who has a secret file here) and then the Unix password.
final class PrivateSSHServer {
    let port: Int
    /// "[127.0.0.1]:PORT ssh-ed25519 …", the line a known_hosts file holds for this server.
    let knownHostsLine: String
    /// "SHA256:…", as ssh shows it in its new-host question.
    let hostFingerprint: String
    private let scratch: ScratchDirectory
    private let pamService: String
    private var server: PseudoTerminalProcess?
    private var holdsPrivilegeSeparationDirectory = false

    /// - Parameter authorizedKeys: a file of public keys the server also accepts, for every user (a key held by an
    ///   ssh-agent); without it, keys are not tried at all.
    init(in scratch: ScratchDirectory, authorizedKeys: String? = nil) throws {
        self.scratch = scratch
        // Its processes' names begin with "sshd" (the kernel keeps 15 characters), as a real sshd's do, so
        // that the session rule sees an SSH login where a person would see one.
        pamService = "sshd-otce2e" + uniqueSuffix()
        let hostKey = scratch.file("ssh_host_ed25519_key")
        try runChecked(["/usr/bin/ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "otc-e2e-host", "-f", hostKey])
        let publicKey = try String(contentsOfFile: hostKey + ".pub", encoding: .utf8).split(separator: " ")
        let listing = try runCommand(["/usr/bin/ssh-keygen", "-l", "-f", hostKey + ".pub"]).output
        guard let field = listing.split(separator: " ").first(where: { $0.hasPrefix("SHA256:") }) else {
            throw HarnessError("no fingerprint in \(listing)")
        }
        hostFingerprint = String(field)
        try Self.writePAMService(pamService, scratch: scratch)
        // sshd needs its privilege separation directory, which the service manager normally makes.
        try PrivilegeSeparationDirectory.hold()
        holdsPrivilegeSeparationDirectory = true
        let program = scratch.file(pamService)
        guard symlink("/usr/sbin/sshd", program) == 0 else { throw HarnessError("symlink \(program)") }
        let (port, server) = try startListening("sshd") { port in
            let config = try scratch.write(
                "sshd_config-\(port)",
                """
                Port \(port)
                ListenAddress 127.0.0.1
                HostKey \(hostKey)
                PidFile \(scratch.file("sshd-\(port).pid"))
                AuthorizedKeysFile \(authorizedKeys ?? "none")
                UsePAM yes
                KbdInteractiveAuthentication yes
                PasswordAuthentication yes
                PubkeyAuthentication \(authorizedKeys == nil ? "no" : "yes")
                PermitRootLogin no
                StrictModes no
                PrintMotd no
                LoginGraceTime 60
                MaxAuthTries 6

                """)
            return try PseudoTerminalProcess(
                executable: program, arguments: ["-D", "-e", "-f", config],
                environment: ["PATH": "/usr/sbin:/usr/bin"], terminal: false)
        }
        self.port = port
        self.server = server
        knownHostsLine = "[127.0.0.1]:\(port) \(publicKey[0]) \(publicKey[1])\n"
    }

    deinit {
        if let server {
            server.sendSignal(SIGTERM)
            _ = server.waitForExit(deadline: .seconds(5))
        }
        unlink("/etc/pam.d/" + pamService)
        if holdsPrivilegeSeparationDirectory { PrivilegeSeparationDirectory.release() }
    }

    /// The TOTP secret file for `user` that the PAM stack reads (as root, `user=root`).
    func totpSecretPath(for user: String) -> String { scratch.file("totp-" + user) }

    /// Gives `user` a TOTP secret: from now on the server asks them for a verification code first.
    func enableTOTP(for user: String) throws -> TOTPSecret {
        let secret = TOTPSecret()
        try scratch.write("totp-" + user, secret.base32 + "\n\" TOTP_AUTH\n", mode: 0o400)
        return secret
    }

    /// What sshd logged so far (its stderr, -e).
    var log: String { server?.standardErrorText ?? "" }

    private static func writePAMService(_ pamService: String, scratch: ScratchDirectory) throws {
        let path = "/etc/pam.d/" + pamService
        let stack = """
            # otc-prompt end-to-end tests: removed when the test ends.
            auth requisite pam_google_authenticator.so nullok user=root secret=\(scratch.path)/totp-${USER}
            auth required pam_unix.so
            account required pam_unix.so
            session required pam_permit.so

            """
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else { throw HarnessError("create \(path): \(String(cString: strerror(errno)))") }
        let bytes = Array(stack.utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        guard written == bytes.count else { throw HarnessError("write \(path)") }
    }
}

/// A TOTP secret and its current codes, from oathtool.
struct TOTPSecret {
    let base32: String

    init() {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
        base32 = String((0..<32).map { _ in alphabet.randomElement()! })
    }

    /// The code valid now.
    func currentCode() throws -> String {
        let result = try runCommand(["/usr/bin/oathtool", "--totp", "-b", base32])
        let code = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        guard result.status == .exited(0), code.count == 6 else { throw HarnessError("oathtool: \(result.error)") }
        return code
    }

    /// A code valid at no time within a minute of now.
    func wrongCode() throws -> String {
        let window = try runCommand([
            "/usr/bin/oathtool", "--totp", "--now", "now - 60 seconds", "-w", "4", "-b", base32,
        ]).output
            .split(separator: "\n").map(String.init)
        var candidate = (Int(try currentCode()) ?? 0) + 500_000
        while window.contains(String(format: "%06d", candidate % 1_000_000)) { candidate += 1 }
        return String(format: "%06d", candidate % 1_000_000)
    }
}

/// sshd's /run/sshd, which every connection's privilege separation needs: made by the first server if the machine has
/// none, and removed once the last server is gone. One test's server removing it while another's was still taking a
/// login reset that login ("kex_exchange_identification: Connection reset by peer"), and so did another test process
/// (a second checkout's suite run at the same time). So the servers of every test process hold a shared lock on a
/// file of the harness's own beside it, and the directory goes only when an exclusive lock shows no one holds it.
/// A marker file says the harness made it: a /run/sshd the machine had is never removed.
private enum PrivilegeSeparationDirectory {
    static let directory = "/run/sshd"
    static let lockFile = "/run/otc-prompt-tests-sshd.lock"
    static let madeMarker = "/run/otc-prompt-tests-sshd.made"
    nonisolated(unsafe) private static var holders = 0
    nonisolated(unsafe) private static var lockDescriptor: Int32 = -1
    private static let lock = NSLock()

    static func hold() throws {
        try lock.withLock {
            if holders == 0 {
                let descriptor = open(lockFile, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
                guard descriptor >= 0 else { throw HarnessError("open \(lockFile)") }
                // Exclusive while the directory is made, so that no other process removes it in between.
                flock(descriptor, LOCK_EX)
                if access(directory, F_OK) != 0 {
                    guard mkdir(directory, 0o755) == 0 else {
                        close(descriptor)
                        throw HarnessError("mkdir \(directory)")
                    }
                    close(open(madeMarker, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600))
                }
                flock(descriptor, LOCK_SH)
                lockDescriptor = descriptor
            }
            holders += 1
        }
    }

    static func release() {
        lock.withLock {
            holders -= 1
            guard holders == 0 else { return }
            if flock(lockDescriptor, LOCK_EX | LOCK_NB) == 0, access(madeMarker, F_OK) == 0 {
                rmdir(directory)
                unlink(madeMarker)
            }
            close(lockDescriptor)
            lockDescriptor = -1
        }
    }
}
