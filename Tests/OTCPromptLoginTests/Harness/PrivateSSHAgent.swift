import Foundation
import Glibc
import OTCPromptTestSupport

/// An ssh-agent in the foreground on its own pseudo-terminal (where its askpass asks), with one key
/// added by `ssh-add -c`: every use of the key must be confirmed through SSH_ASKPASS.
///
/// The key's private half is deleted once the agent holds it, so a signature can only come from the agent.
final class PrivateSSHAgent {
    let agent: ClientRun
    let socket: String
    let publicKey: String
    /// "SHA256:…", as ssh-agent shows it in its question.
    let fingerprint: String
    /// The ssh-keygen -Y verify file that trusts only this key.
    let allowedSigners: String
    private let scratch: ScratchDirectory

    init(in scratch: ScratchDirectory, askpass: String) throws {
        self.scratch = scratch
        socket = scratch.file("agent.sock")
        let key = scratch.file("id_ed25519")
        publicKey = key + ".pub"
        try runChecked(["/usr/bin/ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "otc-e2e-key", "-f", key])
        let listing = try runCommand(["/usr/bin/ssh-keygen", "-l", "-f", publicKey]).output
        guard let field = listing.split(separator: " ").first(where: { $0.hasPrefix("SHA256:") }) else {
            throw HarnessError("no fingerprint in \(listing)")
        }
        fingerprint = String(field)
        let publicKeyText = try String(contentsOfFile: publicKey, encoding: .utf8)
        allowedSigners = try scratch.write("allowed_signers", "otc-e2e " + publicKeyText)
        // ssh-agent asks through SSH_ASKPASS only with a display or SSH_ASKPASS_REQUIRE=force.
        agent = try ClientRun(
            ["/usr/bin/ssh-agent", "-D", "-a", socket],
            environment: ClientRun.environment([
                "SSH_ASKPASS": askpass, "SSH_ASKPASS_REQUIRE": "force",
                "XDG_RUNTIME_DIR": try scratch.runtimeDirectory(named: "agent-runtime"),
            ]))
        guard waitUntil(deadline: .seconds(10), { unixSocketListens(socket) }) else {
            throw HarnessError("ssh-agent never listened on its socket; screen: \(agent.visibleScreen)")
        }
        let added = try runCommand(["/usr/bin/ssh-add", "-c", key], environment: clientEnvironment)
        guard added.status == .exited(0) else { throw HarnessError("ssh-add -c: \(added.error)") }
        unlink(key)
    }

    deinit { agent.process.sendSignal(SIGTERM) }

    /// What a client of this agent needs.
    var clientEnvironment: [String: String] {
        ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "SSH_AUTH_SOCK": socket]
    }

    /// Starts `ssh-keygen -Y sign` of a fresh file with the agent's key; the agent then asks for confirmation.
    func requestSignature(_ name: String) throws -> SignatureRequest {
        let message = try scratch.write(name, "a message to sign: \(name)\n")
        let process = try PseudoTerminalProcess(
            executable: "/usr/bin/ssh-keygen", arguments: ["-Y", "sign", "-f", publicKey, "-n", "file", message],
            environment: clientEnvironment, terminal: false)
        return SignatureRequest(process: process, message: message, allowedSigners: allowedSigners)
    }
}

/// One `ssh-keygen -Y sign` waiting for the agent.
struct SignatureRequest {
    let process: PseudoTerminalProcess
    let message: String
    let allowedSigners: String

    /// True when the signer exited 0 and its signature verifies against the agent's key.
    func signed(deadline: Duration = .seconds(20)) throws -> Bool {
        guard process.waitForExit(deadline: deadline) == .exited(0) else { return false }
        let check = try runCommand([
            "/bin/sh", "-c", "exec ssh-keygen -Y verify -f \"$1\" -I otc-e2e -n file -s \"$2.sig\" < \"$2\"", "sh",
            allowedSigners, message,
        ])
        return check.status == .exited(0)
    }

    /// True when the signer ended without a signature (the agent refused).
    func refused(deadline: Duration = .seconds(20)) -> Bool {
        guard let status = process.waitForExit(deadline: deadline) else { return false }
        return status != .exited(0) && access(message + ".sig", F_OK) != 0
    }

    /// True while the signer is still waiting for an answer.
    var pending: Bool { process.waitForExit(deadline: .zero) == nil }
}
