import Foundation
import Glibc
import OTCPromptTestSupport

/// A bare git repository served over HTTP on 127.0.0.1 by `git http-backend` behind a small Python
/// server (Fixtures/git-http-server.py) that asks for a user name and password (Basic auth).
final class GitHTTPRemote {
    let url: String
    let userName = "otc-reader"
    let password = "remote-" + uniqueSuffix()
    /// The commit the remote's main branch points to.
    let head: String
    private var server: PseudoTerminalProcess?

    static var script: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/git-http-server.py").path
    }

    init(in scratch: ScratchDirectory) throws {
        let work = scratch.file("work")
        let bare = scratch.file("remote/project.git")
        let git = [
            "/usr/bin/git", "-c", "init.defaultBranch=main", "-c", "user.name=otc", "-c", "user.email=otc@localhost",
        ]
        try runChecked(git + ["init", "--quiet", work])
        try scratch.write("work/README", "cloned through otc-prompt\n")
        try runChecked(git + ["-C", work, "add", "README"])
        try runChecked(git + ["-C", work, "commit", "--quiet", "-m", "first"])
        try runChecked(git + ["clone", "--quiet", "--bare", work, bare])
        head = try runCommand(["/usr/bin/git", "-C", bare, "rev-parse", "main"]).output
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let (userName, password, served) = (userName, password, scratch.file("remote"))
        let (port, started) = try startListening("the git HTTP server") { port in
            try PseudoTerminalProcess(
                executable: "/usr/bin/python3",
                arguments: [Self.script, String(port), served, userName, password],
                environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"], terminal: false)
        }
        url = "http://127.0.0.1:\(port)/project.git"
        server = started
    }

    deinit {
        if let server {
            server.sendSignal(SIGTERM)
            _ = server.waitForExit(deadline: .seconds(5))
        }
    }
}
