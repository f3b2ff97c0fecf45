import OTCPromptCore
import OTCPromptHost
import OTCPromptSystem

#if canImport(Glibc)
    import Glibc
#endif

/// What listens at a BrlAPI address and whose it is (`BrailleServerFinding`), found before anything is sent to it:
/// libbrlapi's connection sends the key file's secret before the prompt could look at the peer.
public enum BrailleServerProbe {
    /// How long a local server may take to accept the probe's connection.
    static let connectTimeout: Duration = .milliseconds(300)

    /// The finding at `address`; `named` when BRLAPI_HOST named it.
    static func finding(at address: BrailleAddress, named: Bool) -> BrailleServerFinding {
        switch address {
        case .local:
            return local(address, named: named)
        case .tcp(let host, let port) where address.isLoopback || LocalHost.names(host):
            // /proc/net is the kernel's own: no peer credentials come with TCP, but the listener's owner is listed.
            let tables = ["/proc/net/tcp", "/proc/net/tcp6"].compactMap { try? ConfigFile.readText(path: $0) }
            let owners = ListeningSockets.owners(ofPort: port, in: tables, anyLocalAddress: !address.isLoopback)
            guard owners.count <= 1 else {
                let uids = owners.sorted().map(String.init).joined(separator: ", ")
                return BrailleServerFinding(
                    address: address, named: named, owner: nil, problem: "several users listen there (uids \(uids))")
            }
            return BrailleServerFinding(address: address, named: named, owner: owners.first.map { .uid($0) })
        case .tcp:
            return BrailleServerFinding(address: address, named: named, owner: .unknowable)
        }
    }

    /// A local socket: the file, the directory that holds it (`LocalSocket.directoryRefusal`), and the uid of the
    /// process that listens on it.
    /// The corresponding C functions are `lstat`, `socket`, `connect` and `getsockopt(SO_PEERCRED)`.
    private static func local(_ address: BrailleAddress, named: Bool) -> BrailleServerFinding {
        let path = address.path ?? ""
        func finding(_ owner: UInt32?, problem: String? = nil) -> BrailleServerFinding {
            BrailleServerFinding(address: address, named: named, owner: owner.map { .uid($0) }, problem: problem)
        }
        // Whoever may change it could put a server of theirs in place of brltty's.
        if let why = LocalSocket.directoryRefusal(of: path, uid: getuid()) { return finding(nil, problem: why) }
        var file = stat()
        guard SystemCall.retrying("lstat", { lstat(path, &file) }) == 0 else { return finding(nil) }
        guard file.st_mode & S_IFMT == S_IFSOCK else { return finding(nil, problem: "\(path) is not a socket") }
        guard let socket = try? LocalSocket.connect(path: path, timeout: connectTimeout) else { return finding(nil) }
        defer { socket.close() }
        guard let peer = socket.peerUID else { return finding(nil, problem: "its server's uid cannot be read") }
        if peer != file.st_uid {
            return finding(
                nil, problem: "the socket belongs to uid \(file.st_uid) but its server runs as uid \(peer)")
        }
        return finding(peer)
    }

    /// Root, and the account brltty switches to where the system has one (its `brltty` user).
    /// The corresponding C function is `getpwnam_r`.
    public static var systemUIDs: Set<UInt32> {
        var uids: Set<UInt32> = [0]
        var entry = passwd()
        var found: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        if getpwnam_r("brltty", &entry, &buffer, buffer.count, &found) == 0, found != nil { uids.insert(entry.pw_uid) }
        return uids
    }
}

extension BrailleRoute {
    /// The route `choice` gives for the person at `location`, the server at its address probed on this thread only
    /// when the rules need it, with what the probe found (nil when it was not asked): the one place the rules are
    /// asked, for the output's thread and `--doctor`'s report alike.
    static func probed(_ choice: BrailleChoice, location: SessionLocation, environment: [String: String])
        -> (route: BrailleRoute, found: BrailleServerFinding?)
    {
        var found: BrailleServerFinding?
        let route = choose(
            choice, location: location, environment: environment, user: UserAccount.currentUID,
            systemUIDs: BrailleServerProbe.systemUIDs
        ) { address in
            let finding = BrailleServerProbe.finding(at: address, named: !(environment["BRLAPI_HOST"] ?? "").isEmpty)
            found = finding
            return finding
        }
        return (route, found)
    }
}
