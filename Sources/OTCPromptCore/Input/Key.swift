/// One thing the user did at the keyboard, decoded from terminal bytes by `KeyDecoder`.
public enum Key: Equatable, Sendable {
    /// A printable character (one grapheme), before any charset check.
    case character(Character)
    /// Backspace (0x7f or 0x08): delete the last character.
    case backspace
    /// Ctrl-U: clear the whole field.
    case clearField
    /// Ctrl-R: read the whole code back as one unit.
    case readBack
    /// Enter (CR or LF).
    case submit
    /// Ctrl-C.
    case interrupt
    /// Esc pressed alone (not the start of a sequence).
    case escape
    /// Ctrl-D.
    case endOfInput
    /// Tab (0x09): a character of a free-text secret (cryptsetup's and sudo's prompts keep it), nothing elsewhere.
    case tab
    /// Ctrl-T: say how much time is left.
    case timeLeft
    /// Ctrl-L: draw the field again.
    case redraw
    /// Ctrl-Z (0x1A): raw mode turns off the terminal's own job control, so the prompt stops itself.
    case suspend
    /// ESC[200~ arrived: what follows up to `.pasteEnded` is pasted text.
    case pasteBegan
    /// A piece of pasted text; a large paste arrives as many pieces, never buffered whole.
    case pasteText(String)
    /// ESC[201~ arrived: the paste is complete.
    case pasteEnded
    /// Two or more characters that arrived in one read on a terminal that cannot mark pastes
    /// (`UnmarkedPaste`): scanned as a paste, but never submitted before the user presses Enter.
    case unmarkedPaste(String)
    /// Bytes that are not a character in the terminal's charset (invalid UTF-8: a Latin-1 `é` on a
    /// UTF-8 or ASCII locale). Carries nothing of what was typed; the session says a character was
    /// not read, never drops it silently.
    case undecodable
    /// A key consumed whole that must change nothing: Tab, arrows, function keys, Alt plus a key,
    /// other control characters, unknown or broken sequences. Still a key the user pressed: within
    /// the type-ahead grace it begins a leftover line (`TypeAheadRule.discarded`).
    case ignored
    /// Something the terminal sent that no key made: a focus report (ESC [ I, ESC [ O) or a reply
    /// to a query (OSC, DCS, APC, PM, SOS strings; CSI replies with a private marker; a cursor
    /// position report). Changes nothing and, unlike `.ignored`, begins no line.
    case terminalReport
}
