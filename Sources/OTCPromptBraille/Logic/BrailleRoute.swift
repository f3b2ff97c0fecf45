import OTCPromptCore

/// What the probes found at the BrlAPI address: whether a server listens, and whose it is.
struct BrailleServerFinding: Equatable, Sendable {
    enum Owner: Equatable, Sendable {
        /// The uid of the process that listens (SO_PEERCRED on a local socket, /proc/net/tcp for this machine's TCP).
        case uid(UInt32)
        /// A TCP server on another machine: nothing here can tell whose it is.
        case unknowable
    }

    var address: BrailleAddress
    /// `BRLAPI_HOST` named it: the user pointed at it (a display they forwarded over SSH), rather than the default.
    var named: Bool
    /// nil: nothing listens there.
    var owner: Owner?
    /// Why the address is refused whoever listens (the socket file is another's, several owners share the port).
    var problem: String?

    init(address: BrailleAddress, named: Bool, owner: Owner?, problem: String? = nil) {
        self.address = address
        self.named = named
        self.owner = owner
        self.problem = problem
    }
}

/// Whether the field goes to a braille display, and why: said by `--doctor`.
struct BrailleRoute: Equatable, Sendable {
    /// The server to use; nil for none.
    var address: BrailleAddress?
    /// One sentence: why.
    var reason: String

    init(_ address: BrailleAddress?, reason: String) {
        self.address = address
        self.reason = reason
    }

    /// The first rule that holds, by the same evidence as the speech route:
    /// 1. `none` chosen: no display;
    /// 2. `BRLAPI_HOST` names no address libbrlapi would reach the same way, or nothing listens: no display;
    /// 3. the person is elsewhere (`SpeechRoute.remoteEvidence`): only a server `BRLAPI_HOST` names that is their
    ///    own (a display they forwarded), never this machine's;
    /// 4. the server is the user's own: used;
    /// 5. the system's (root's, or brltty's own account): used when the person is at this machine (its console, or a
    ///    terminal of its own display), whose display it drives;
    /// 6. a server on another machine: used only when `brlapi` was chosen, since nothing can tell whose it is;
    /// 7. another user's: refused.
    /// - Parameters:
    ///   - user: the real uid of the person the prompt runs for.
    ///   - systemUIDs: root, and the account brltty drops to where there is one.
    ///   - server: what listens at the address, asked only when the rules before need it.
    static func choose(
        _ choice: BrailleChoice, location: SessionLocation, environment: [String: String], user: UInt32,
        systemUIDs: Set<UInt32>, server: (BrailleAddress) -> BrailleServerFinding
    ) -> BrailleRoute {
        if choice == .none { return BrailleRoute(nil, reason: "chosen by --braille or the config file") }
        let named = !(environment["BRLAPI_HOST"] ?? "").isEmpty
        guard let address = BrailleAddress(host: environment["BRLAPI_HOST"]) else {
            return BrailleRoute(nil, reason: "BRLAPI_HOST names a socket outside \(BrailleAddress.socketDirectory)")
        }
        let elsewhere = SpeechRoute.remoteEvidence(location: location, environment: environment)
        if let elsewhere, !named {
            return BrailleRoute(
                nil,
                reason: "you are not at this machine (\(elsewhere)) and BRLAPI_HOST forwards no display: this "
                    + "machine's braille display is never used")
        }
        let found = server(address)
        if let problem = found.problem {
            return BrailleRoute(nil, reason: "the BrlAPI server at \(address.readable) is refused: \(problem)")
        }
        switch found.owner {
        case nil:
            return BrailleRoute(nil, reason: "no BrlAPI server answers at \(address.readable)")
        case .uid(let owner) where owner == user:
            return BrailleRoute(address, reason: "your own BrlAPI server answers at \(address.readable)")
        case .uid(let owner) where systemUIDs.contains(owner):
            guard elsewhere == nil, location.isHere else {
                let why = elsewhere ?? location.evidence
                return BrailleRoute(
                    nil,
                    reason: "the system's brltty at \(address.readable) drives the display of whoever is at this "
                        + "machine, and you may not be (\(why))")
            }
            return BrailleRoute(
                address,
                reason: "the system's brltty answers at \(address.readable), and you are at this machine "
                    + "(\(location.evidence))")
        case .uid(let owner):
            return BrailleRoute(
                nil,
                reason: "the BrlAPI server at \(address.readable) is refused: it runs as uid \(owner), not as you "
                    + "(uid \(user))")
        case .unknowable where choice == .brlapi:
            return BrailleRoute(
                address, reason: "--braille brlapi: BRLAPI_HOST names \(address.readable), whose owner TCP cannot tell")
        case .unknowable:
            return BrailleRoute(
                nil,
                reason: "BRLAPI_HOST names \(address.readable) on another machine, whose owner TCP cannot tell: "
                    + "choose --braille brlapi to use it")
        }
    }
}
