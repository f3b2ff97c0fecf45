import OTCPromptCore

/// Where a BrlAPI server listens, read from `BRLAPI_HOST` as libbrlapi reads it (`brlapi_expandHost`): nothing is
/// the local socket 0; `:N` the local socket N in /var/lib/BrlAPI; `HOST:N` TCP port 4101+N on HOST; `HOST` port
/// 4101. The prompt judges whose server is there at this same address, and hands libbrlapi exactly this address.
enum BrailleAddress: Equatable, Sendable {
    /// A unix socket of brltty's directory.
    case local(name: String)
    case tcp(host: String, port: Int)

    /// Where brltty puts its local sockets (`BRLAPI_SOCKETPATH`).
    static let socketDirectory = "/var/lib/BrlAPI"
    /// The TCP port of server 0 (`BRLAPI_SOCKETPORTNUM`).
    static let basePort = 4101

    /// The address `BRLAPI_HOST` names, the local socket 0 when it is unset or empty; nil when it names a local
    /// socket outside brltty's directory, which libbrlapi would follow and the prompt does not.
    init?(host: String?) {
        guard let host, !host.isEmpty else {
            self = .local(name: "0")
            return
        }
        guard let colon = host.lastIndex(of: ":") else {
            self = .tcp(host: host, port: Self.basePort)
            return
        }
        let after = String(host[host.index(after: colon)...])
        if colon == host.startIndex {
            guard !after.isEmpty, !after.contains("/"), after != ".", after != ".." else { return nil }
            self = .local(name: after)
            return
        }
        // As libbrlapi: a number that is not one, or too large, leaves the base port.
        var port = Self.basePort
        if let first = after.unicodeScalars.first, ("0"..."9").contains(first), let number = Int(after),
            number <= Int(UInt16.max) - Self.basePort
        {
            port += number
        }
        self = .tcp(host: String(host[..<colon]), port: port)
    }

    /// The socket's path, for a local address.
    var path: String? {
        if case .local(let name) = self { return Self.socketDirectory + "/" + name }
        return nil
    }

    /// Whether a TCP address is this machine's own (its listeners can be told apart by owner).
    var isLoopback: Bool {
        guard case .tcp(let host, _) = self else { return false }
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return bare == "localhost" || bare == "ip6-localhost" || bare == "::1" || bare.hasPrefix("127.")
    }

    /// The address as libbrlapi's `host` setting writes it.
    var setting: String {
        switch self {
        case .local(let name): ":" + name
        case .tcp(let host, let port): host + ":" + String(port - Self.basePort)
        }
    }

    /// For messages: the socket's path, or host and port.
    var readable: String {
        switch self {
        case .local: path ?? ""
        case .tcp(let host, let port): "\(host) port \(port)"
        }
    }
}

/// Which tty a braille client takes, as brltty's clients choose it (`brlapi_enterTtyMode` with the default tty):
/// the virtual console the prompt runs on; else the terminal window's X id (`WINDOWID`), `CONTROLVT`, or outside a
/// graphical session `XDG_VTNR`. libbrlapi puts the graphical session's console (`WINDOWPATH`) before it.
enum BrailleTty {
    /// The ttys to enter below `WINDOWPATH`: one number, none for the graphical session's console itself; nil when
    /// the terminal has no place on the display that brltty would show.
    static func path(terminal: TerminalDevice?, environment: [String: String]) -> [Int32]? {
        if let console = terminal?.virtualConsoleNumber { return [console] }
        func number(_ name: String) -> Int32? {
            environment[name].flatMap { UInt32($0) }.map { Int32(bitPattern: $0) }
        }
        let graphical = !(environment["DISPLAY"] ?? "").isEmpty || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
        if let window = number("WINDOWID") ?? number("CONTROLVT") { return [window] }
        if !graphical, let console = number("XDG_VTNR") { return [console] }
        if !(environment["WINDOWPATH"] ?? "").isEmpty || (graphical && number("XDG_VTNR") != nil) { return [] }
        return nil
    }
}

extension TerminalDevice {
    /// N of /dev/ttyN, for a virtual console.
    var virtualConsoleNumber: Int32? {
        guard isVirtualConsole else { return nil }
        return Int32((device & 0xff) | ((device >> 12) & 0xfff00))
    }
}

extension BrailleAddress {
    /// The key file a client authorises with under `auth` (BRLAPI_AUTH: `none`, `keyfile:PATH`, a path, or several
    /// joined by `+`; unset: libbrlapi's default, /etc/brlapi.key); nil when no key file is used.
    static func keyFile(auth: String?) -> String? {
        guard let auth, !auth.isEmpty else { return "/etc/brlapi.key" }
        for method in auth.split(separator: "+") {
            if method.hasPrefix("keyfile:") { return String(method.dropFirst("keyfile:".count)) }
            if method.hasPrefix("/") { return String(method) }
        }
        return nil
    }
}
