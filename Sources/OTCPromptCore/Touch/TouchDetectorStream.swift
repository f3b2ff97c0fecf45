/// yubikey-touch-detector's socket, read as its 5-byte messages (`U2F_1`, `U2F_0`, `GPG_1`, `GPG_0`, `MAC_1`,
/// `MAC_0`) from a stream that may split a message across reads or bring several in one.
///
/// What is not one of those messages is skipped a byte at a time until one lines up again, so a stray byte costs
/// at most the message it lands in, never every message after it.
public struct TouchDetectorStream: Equatable, Sendable {
    /// What the key waits for a touch for: a FIDO/U2F request, an OpenPGP card operation, an HMAC challenge.
    public enum Kind: String, Equatable, Hashable, Sendable, CaseIterable {
        case u2f = "U2F"
        case gpg = "GPG"
        case mac = "MAC"
    }

    /// One message: a wait for a touch of `kind` began (`waiting`) or ended.
    public struct Message: Equatable, Sendable {
        public var kind: Kind
        public var waiting: Bool

        public init(_ kind: Kind, waiting: Bool) {
            self.kind = kind
            self.waiting = waiting
        }

        /// The message's five bytes on the wire.
        public var bytes: [UInt8] { Array("\(kind.rawValue)_\(waiting ? 1 : 0)".utf8) }
    }

    /// Every message is this long.
    public static let messageLength = 5

    /// The start of a message not complete yet: never more than `messageLength - 1` bytes.
    private var pending: [UInt8] = []

    public init() {}

    /// The messages `bytes` completes, in order.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [Message] {
        pending.append(contentsOf: bytes)
        var messages: [Message] = []
        var start = 0
        while pending.count - start >= Self.messageLength {
            if let message = Self.message(pending[start..<start + Self.messageLength]) {
                messages.append(message)
                start += Self.messageLength
            } else {
                start += 1
            }
        }
        pending.removeFirst(start)
        return messages
    }

    /// A connection ended: what it left half-sent means nothing to the next one.
    public mutating func reset() { pending.removeAll() }

    private static func message(_ bytes: ArraySlice<UInt8>) -> Message? {
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.count == messageLength, text.dropFirst(3).first == "_",
            let kind = Kind(rawValue: String(text.prefix(3)))
        else { return nil }
        switch text.last {
        case "1": return Message(kind, waiting: true)
        case "0": return Message(kind, waiting: false)
        default: return nil
        }
    }
}
