import OTCPromptSystem

#if canImport(Glibc)
    import Glibc
#endif

/// Whether a host name or address is this machine, however it is written: `LOCALHOST`, its own host name, 0.0.0.0,
/// `::`, or any address of one of its interfaces. A server there is judged by who owns its listener, as one on
/// 127.0.0.1 is; only a truly remote one is beyond what can be known.
enum LocalHost {
    /// Whether `host` (a name, a dotted or colon address, in brackets or not) reaches this machine.
    /// The corresponding C functions are `gethostname`, `getaddrinfo` and `getifaddrs`.
    static func names(_ host: String) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        let lowered = bare.lowercased()
        if lowered.isEmpty || lowered == "localhost" || lowered.hasSuffix(".localhost") { return true }
        if let own = hostName, lowered == own.lowercased() || lowered.hasPrefix(own.lowercased() + ".") {
            return true
        }
        let local = interfaceAddresses
        // A name that resolves to any address of this machine is this machine, whatever else it resolves to:
        // libbrlapi tries them in turn.
        return resolved(bare).contains { isAny($0) || isLoopback($0) || local.contains($0) }
    }

    /// This machine's name. The corresponding C function is `gethostname`.
    private static var hostName: String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? nil : name
    }

    /// An address as bytes: 4 for IPv4, 16 for IPv6 (an IPv4 one mapped into IPv6 is given as its 4).
    private static func bytes(_ address: UnsafePointer<sockaddr>) -> [UInt8]? {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                withUnsafeBytes(of: $0.pointee.sin_addr) { Array($0) }
            }
        case AF_INET6:
            let raw = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                withUnsafeBytes(of: $0.pointee.sin6_addr) { Array($0) }
            }
            if raw.prefix(10).allSatisfy({ $0 == 0 }) && raw[10] == 0xFF && raw[11] == 0xFF { return Array(raw[12...]) }
            return raw
        default:
            return nil
        }
    }

    private static func isAny(_ address: [UInt8]) -> Bool { address.allSatisfy { $0 == 0 } }

    private static func isLoopback(_ address: [UInt8]) -> Bool {
        address.count == 4 ? address[0] == 127 : address == [UInt8](repeating: 0, count: 15) + [1]
    }

    /// The addresses `host` resolves to, as libbrlapi resolves it. The corresponding C function is `getaddrinfo`.
    private static func resolved(_ host: String) -> [[UInt8]] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0 else { return [] }
        defer { freeaddrinfo(list) }
        var addresses: [[UInt8]] = []
        var entry = list
        while let current = entry {
            if let address = current.pointee.ai_addr, let value = bytes(address) { addresses.append(value) }
            entry = current.pointee.ai_next
        }
        return addresses
    }

    /// Every address of this machine's interfaces. The corresponding C function is `getifaddrs`.
    private static var interfaceAddresses: Set<[UInt8]> {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return [] }
        defer { freeifaddrs(list) }
        var addresses: Set<[UInt8]> = []
        var entry = list
        while let current = entry {
            if let address = current.pointee.ifa_addr, let value = bytes(address) { addresses.insert(value) }
            entry = current.pointee.ifa_next
        }
        return addresses
    }
}
