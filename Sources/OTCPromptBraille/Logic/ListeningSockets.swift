import OTCPromptCore

/// This machine's listening TCP sockets as /proc/net/tcp and /proc/net/tcp6 list them, each with the uid that owns
/// it: over TCP no peer credentials come with a connection, so a server on this machine is judged by its listener.
enum ListeningSockets {
    /// The owners of the sockets that listen on `port` where a connection to the loopback address reaches them (the
    /// loopback address itself, or any address).
    /// - Parameter tables: the text of /proc/net/tcp, /proc/net/tcp6, or both.
    /// - Parameter anyLocalAddress: count the listeners on every address of this machine (a name or address of one of
    ///   its interfaces was asked for): which of them a connection reaches is not told apart, so two owners refuse it.
    static func owners(ofPort port: Int, in tables: [String], anyLocalAddress: Bool = false) -> Set<UInt32> {
        var owners: Set<UInt32> = []
        for table in tables {
            for line in table.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid ...
                guard fields.count > 7, fields[3] == "0A", let uid = UInt32(fields[7]) else { continue }
                let local = fields[1].split(separator: ":")
                guard local.count == 2, Int(local[1], radix: 16) == port,
                    anyLocalAddress || reachesLoopback(String(local[0]))
                else {
                    continue
                }
                owners.insert(uid)
            }
        }
        return owners
    }

    /// Whether a local address (hexadecimal, as the kernel prints it: 32-bit words in host order, little-endian
    /// here) is the loopback address, any address, or an IPv4 one of those mapped into IPv6.
    static func reachesLoopback(_ hex: String) -> Bool {
        let words = stride(from: 0, to: hex.count, by: 8).map { offset -> UInt32? in
            let start = hex.index(hex.startIndex, offsetBy: offset)
            let end = hex.index(start, offsetBy: 8, limitedBy: hex.endIndex) ?? hex.endIndex
            return UInt32(hex[start..<end], radix: 16)
        }
        guard !words.contains(nil) else { return false }
        let values = words.compactMap { $0 }
        func isIPv4Loopback(_ word: UInt32) -> Bool { word & 0xFF == 127 || word == 0 }
        switch values.count {
        case 1: return isIPv4Loopback(values[0])
        case 4:
            if values.allSatisfy({ $0 == 0 }) { return true }
            if values[0] == 0 && values[1] == 0 && values[2] == 0 && values[3] == 0x0100_0000 { return true }
            // ::ffff:a.b.c.d
            if values[0] == 0 && values[1] == 0 && values[2] == 0xFFFF_0000 { return isIPv4Loopback(values[3]) }
            return false
        default: return false
        }
    }
}
