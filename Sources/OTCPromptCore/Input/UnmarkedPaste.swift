/// A paste on a terminal that cannot mark it (`TERM=dumb` or unset: Emacs shell mode, serial
/// consoles) arrives as a burst of characters in one read, where typing, even a fast typist's or a
/// screen reader's echoed key, gives one key per read. Only the loop knows where a read ends, so it
/// passes each read's keys through here when it has not turned bracketed paste on.
///
/// Over a slow link two typed keys can share a read too: that is why the session never submits an
/// `.unmarkedPaste` on its own, whatever the field holds, but says it and waits for Enter.
public enum UnmarkedPaste {
    /// How many characters in one read make a burst: two keys are never pressed at the same instant.
    public static let minimumCharacters = 2

    /// The keys of one read, with a burst of text turned into one `.unmarkedPaste`: two or more
    /// characters and nothing but text (characters, line breaks, other control characters such as
    /// a tab, taken as a separator). A read that holds an editing key, Esc, Ctrl-C or a bracketed
    /// paste is keys, as decoded, and so is any read with an ESC in its `bytes` (an arrow key).
    /// Bytes that are not a character (`.undecodable`) separate like a tab, and are reported after
    /// the paste by one `.undecodable`: never dropped silently.
    public static func recognise(_ keys: [Key], from bytes: [UInt8]) -> [Key] {
        if bytes.contains(0x1B) { return keys }
        guard let (text, characters, undecodable) = text(of: keys), characters >= minimumCharacters else {
            return keys
        }
        return undecodable ? [.unmarkedPaste(text), .undecodable] : [.unmarkedPaste(text)]
    }

    /// The text `keys` make, how many characters it has and whether undecodable bytes were among them;
    /// nil when a key is not text. An `.unmarkedPaste` among them is text too (`UnmarkedPasteJoin`).
    static func text(of keys: [Key]) -> (text: String, characters: Int, undecodable: Bool)? {
        var text = ""
        var characters = 0
        var undecodable = false
        for key in keys {
            switch key {
            case .character(let character):
                text.append(character)
                characters += 1
            case .unmarkedPaste(let pasted):
                text += pasted
                characters += pasted.count
            case .submit: text.append("\n")
            case .ignored, .terminalReport, .tab: text.append(" ")
            case .undecodable:
                text.append(" ")
                undecodable = true
            default: return nil
            }
        }
        return (text, characters, undecodable)
    }
}
