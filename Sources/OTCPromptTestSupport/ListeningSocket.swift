import Glibc
import OTCPromptSystem

/// Whether a server listens on the Unix socket at `path` now: a connection is accepted into its queue.
///
/// A server's socket file exists from its `bind`, before its `listen`: waiting for the file alone lets a client
/// connect in between and be refused (ssh-agent, under load). The corresponding C calls are `socket` and `connect`.
public func unixSocketListens(_ path: String) -> Bool {
    guard let address = UnixSocketAddress(path: path) else { return false }
    let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard probe >= 0 else { return false }
    defer { close(probe) }
    return address.withSocketAddress { connect(probe, $0, $1) } == 0
}
