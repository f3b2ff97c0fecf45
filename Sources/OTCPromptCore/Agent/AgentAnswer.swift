/// The one datagram an agent sends to a request's `Socket=`: `+` and the password, or `-` to cancel
/// (systemd's protocol); otc-prompt's own kinds answer `+yes`/`+no` (a question) and `+` (a notice taken).
///
/// The password travels in a `SecretBytes`, never a `String`; `writeDatagram(into:)` copies it into the sender's
/// locked buffer, which the sender wipes once it is sent.
public enum AgentAnswer: Equatable, Sendable {
    case password(SecretBytes)
    case yes
    case no
    /// A notice was taken (Enter).
    case acknowledged
    /// Esc, or the request was not answered: the querier stops waiting.
    case cancel

    /// How many bytes `writeDatagram(into:)` writes.
    public var datagramCount: Int {
        switch self {
        case .password(let secret): 1 + secret.count
        case .yes: 4
        case .no: 3
        case .acknowledged, .cancel: 1
        }
    }

    /// Writes the datagram into `output`, which has room for `datagramCount` bytes; returns how many it wrote.
    public func writeDatagram(into output: UnsafeMutableRawBufferPointer) -> Int {
        let prefix: [UInt8] =
            switch self {
            case .password, .acknowledged: [UInt8(ascii: "+")]
            case .yes: Array("+yes".utf8)
            case .no: Array("+no".utf8)
            case .cancel: [UInt8(ascii: "-")]
            }
        precondition(output.count >= datagramCount, "the datagram's buffer is too small")
        for (index, byte) in prefix.enumerated() { output[index] = byte }
        guard case .password(let secret) = self else { return prefix.count }
        secret.withUnsafeBytes { bytes in
            UnsafeMutableRawBufferPointer(rebasing: output[1..<(1 + bytes.count)]).copyMemory(from: bytes)
        }
        return datagramCount
    }

    /// The answer a datagram carries for a request of `kind`; nil for one that is none (empty, or neither `+`
    /// nor `-`). A password ends at its first NUL: systemd sends several passwords NUL-separated and the first
    /// is the one typed. The caller wipes `datagram` after.
    public static func decode(_ datagram: UnsafeRawBufferPointer, kind: AskFile.Kind) -> AgentAnswer? {
        guard let first = datagram.first else { return nil }
        if first == UInt8(ascii: "-") { return .cancel }
        guard first == UInt8(ascii: "+") else { return nil }
        let rest = datagram.dropFirst()
        switch kind {
        case .password:
            let secret = SecretBytes(capacity: rest.count)
            for byte in rest {
                if byte == 0 { break }
                secret.append(byte)
            }
            return .password(secret)
        case .question:
            if rest.elementsEqual("yes".utf8) { return .yes }
            if rest.elementsEqual("no".utf8) { return .no }
            return nil
        case .notice:
            return .acknowledged
        }
    }
}
