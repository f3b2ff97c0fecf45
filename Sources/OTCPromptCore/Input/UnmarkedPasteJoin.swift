/// An unmarked paste (`UnmarkedPaste`) split across reads is still one paste: the link, not the
/// user, cut it (a pty hands a long paste over in pieces, ssh in packets, a serial line in FIFO
/// loads). After a read that was a paste, bytes that follow within `window` of the last ones are
/// joined to it, whatever their size, so the SMS extraction sees the whole message; the paste goes to
/// the session once the line has been quiet for `window`. Pure: time arrives as values.
///
/// Typing is untouched: a read that is one key and follows no paste goes straight on, and so does
/// anything that is not text (Backspace, Esc, Ctrl-C), after the paste it ends.
public struct UnmarkedPasteJoin: Sendable {
    /// How long the line must be quiet after a paste-sized read before the paste is whole. Pieces of
    /// one paste follow each other within a few milliseconds: a pty's reads of one write at once, ssh's
    /// packets of one paste within a round trip's jitter, a serial line's FIFO loads 1.5 ms apart at
    /// 115 200 baud and 15 ms at 9600. A person's next key after a paste comes after hearing or seeing
    /// it, 200 ms or more. 100 ms is above the first and below the second; it delays the paste's
    /// announcement by as much, and the paste is never submitted without Enter anyway.
    public static let window: Duration = .milliseconds(100)

    /// The paste read so far, while more of it may come.
    private var held: String?
    /// Undecodable bytes were among the held paste's (reported after it, once).
    private var heldUndecodable = false
    private var lastBytesAt: Duration = .zero

    public init() {}

    /// True while a paste is held, waiting for the rest.
    public var isHolding: Bool { held != nil }

    /// When the held paste is complete unless more bytes come; nil when nothing is held.
    public var deadline: Duration? { held == nil ? nil : lastBytesAt + Self.window }

    /// Takes one read's keys (already through `UnmarkedPaste.recognise`) that arrived at `time`;
    /// returns the keys to hand to the session now. A read that only held part of a character (no
    /// keys yet) keeps the paste open too.
    /// - Parameter bytes: the read's bytes; one with an ESC (an arrow key, a terminal's reply) is not text.
    public mutating func take(_ keys: [Key], from bytes: [UInt8], at time: Duration) -> [Key] {
        let complete = due(at: time)
        if !complete.isEmpty { return complete + take(keys, from: bytes, at: time) }
        let piece = Self.pastePiece(keys)
        if let text = held {
            guard !bytes.contains(0x1B),
                let (more, undecodable) = piece ?? UnmarkedPaste.text(of: keys).map({ ($0.text, $0.undecodable) })
            else { return release() + keys }
            held = text + more
            heldUndecodable = heldUndecodable || undecodable
            lastBytesAt = time
            return []
        }
        guard let (text, undecodable) = piece else { return keys }
        held = text
        heldUndecodable = undecodable
        lastBytesAt = time
        return []
    }

    /// What `UnmarkedPaste.recognise` made of a burst: the paste, and whether a report of undecodable bytes follows.
    private static func pastePiece(_ keys: [Key]) -> (text: String, undecodable: Bool)? {
        guard case .unmarkedPaste(let text)? = keys.first, keys.dropFirst().allSatisfy({ $0 == .undecodable })
        else { return nil }
        return (text, keys.count > 1)
    }

    /// The held paste once the line has been quiet for `window` at `time`; else nothing.
    public mutating func due(at time: Duration) -> [Key] {
        guard let deadline, time >= deadline else { return [] }
        return release()
    }

    /// The held paste now, whatever the time (the prompt is ending, a key that is not text came).
    public mutating func release() -> [Key] {
        guard let text = held else { return [] }
        held = nil
        defer { heldUndecodable = false }
        return heldUndecodable ? [.unmarkedPaste(text), .undecodable] : [.unmarkedPaste(text)]
    }
}
