import Foundation
import OTCPromptTestSupport

/// The prompt run as a shell runs it, with what the shell would read next shown on the screen:
/// after the prompt exits, the wrapper prints its status and every byte still queued on the
/// terminal (waiting up to a second), as `status=N left=[hex]`. Nothing typed for the
/// prompt may be left for the shell.
struct ShellAfterPrompt {
    let process: PseudoTerminalProcess

    private static let script = """
        "$@"; status=$?
        stty -icanon -echo min 0 time 10
        left=$(dd bs=4096 count=1 2>/dev/null | od -An -tx1 | tr -d ' \\n')
        echo "status=$status left=[$left]" > /dev/tty
        """

    /// - Parameter shell: the shell that leads the terminal's session; `RemoteLogin.shell` makes the prompt judge
    ///   the person to be at another machine.
    init(
        _ arguments: [String], environment: [String: String] = PromptRun.environment(), columns: Int = 80,
        shell: String = "/bin/sh"
    ) throws {
        process = try PseudoTerminalProcess(
            executable: shell, arguments: ["-c", Self.script, "sh", PromptRun.binary] + arguments,
            environment: environment, columns: columns)
    }

    /// `status=N left=[hex]` once the wrapper has printed it; nil on the deadline.
    func result(deadline: Duration = .seconds(15)) -> (status: Int, left: String)? {
        guard process.waitForScreen(containing: "left=[", deadline: deadline),
            process.waitForScreen(containing: "]", deadline: .seconds(2))
        else { return nil }
        _ = process.waitForExit(deadline: .seconds(5))
        let screen = process.screen
        guard let range = screen.range(of: "status=", options: .backwards) else { return nil }
        let tail = screen[range.upperBound...]
        let status = Int(tail.prefix { $0.isNumber }) ?? -1
        guard let open = tail.range(of: "left=["), let close = tail[open.upperBound...].firstIndex(of: "]") else {
            return nil
        }
        return (status, String(tail[open.upperBound..<close]))
    }

    func type(_ text: String) { process.type(text) }

    static func pause(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        usleep(UInt32(seconds * 1_000_000 + attoseconds / 1_000_000_000_000))
    }
}
