import OTCPromptCore

/// A key from a braille display as BrlAPI reports it (`brlapi_keyCode_t`), turned into what the prompt does with it.
///
/// brltty translates the dots typed on the display's keyboard into a character with the user's own text table
/// before the prompt sees them (BrlAPI's default: its "retain dots" parameter off), so a typed character arrives as
/// a key symbol: Latin-1 as itself, anything else as U+ with the Unicode flag. Enter, Backspace and Escape are key
/// symbols too, and Ctrl with a letter is the letter with the control flag, which is the terminal's control
/// character, decoded as the terminal's keys are. The panning keys are brltty commands.
///
/// The numbers are BrlAPI 0.8's key codes (`brlapi_keycodes.h`, `brlapi_constants.h`): a protocol, the same in
/// every libbrlapi that speaks it.
enum BrailleKeyCode {
    static let flagsShift: UInt64 = 32
    static let typeMask: UInt64 = 0xE000_0000
    static let typeCommand: UInt64 = 0x2000_0000
    static let codeMask: UInt64 = 0x1FFF_FFFF
    static let commandBlockMask: UInt64 = 0x1FFF_0000
    static let commandArgumentMask: UInt64 = 0x0000_FFFF
    static let unicodeFlag: UInt64 = 0x0100_0000
    static let symbolBackspace: UInt64 = 0xFF08
    static let symbolLinefeed: UInt64 = 0xFF0D
    static let symbolEscape: UInt64 = 0xFF1B
    static let flagUpper: UInt64 = 0x02 << 32
    static let flagControl: UInt64 = 0x04 << 32
    static let flagMeta: UInt64 = 0x08 << 32
    static let anyFlags: UInt64 = 0xFFFF_FFFF << 32

    /// brltty's basic commands the prompt takes (block 0).
    enum Command: UInt64 {
        case windowLeft = 23
        case windowRight = 24
        case windowLeftSkip = 25
        case windowRightSkip = 26
        case lineStart = 27
        case lineEnd = 28
        case returnToCursor = 31
    }

    /// What a key does here, nil for a key the prompt does not take.
    static func decode(_ code: UInt64) -> BrailleInput? {
        if code & typeMask == typeCommand {
            guard code & commandBlockMask == 0, let command = Command(rawValue: code & commandArgumentMask) else {
                return nil
            }
            switch command {
            case .windowLeft, .windowLeftSkip: return .pan(.left)
            case .windowRight, .windowRightSkip: return .pan(.right)
            case .lineStart: return .pan(.lineStart)
            case .lineEnd: return .pan(.lineEnd)
            case .returnToCursor: return .pan(.focus)
            }
        }
        guard code & typeMask == 0 else { return nil }
        switch code & codeMask {
        case symbolBackspace: return .key(.backspace)
        case symbolLinefeed: return .key(.submit)
        case symbolEscape: return .key(.escape)
        default: return character(code)
        }
    }

    /// A typed character, with Ctrl or Alt as a terminal would send it.
    private static func character(_ code: UInt64) -> BrailleInput? {
        let symbol = code & codeMask
        let value: UInt64
        if symbol < 0x100 {
            value = symbol
        } else if symbol & 0x1F00_0000 == unicodeFlag {
            value = symbol & 0x00FF_FFFF
        } else {
            return nil
        }
        // C0 and C1 controls and DEL are never typed characters.
        guard value >= 0x20, !(0x7F...0x9F).contains(value), let scalar = Unicode.Scalar(UInt32(value)) else {
            return nil
        }
        // Alt plus a key is Esc and the key from a terminal, which the prompt ignores.
        if code & flagMeta != 0 { return .key(.ignored) }
        if code & flagControl != 0 {
            guard scalar.isASCII, let upper = Character(scalar).uppercased().unicodeScalars.first,
                (0x40...0x5F).contains(upper.value)
            else { return .key(.ignored) }
            var decoder = KeyDecoder()
            return decoder.feed([UInt8(upper.value & 0x1F)]).first.map(BrailleInput.key)
        }
        let character = Character(scalar)
        if code & flagUpper != 0, let upper = character.uppercased().first { return .key(.character(upper)) }
        return .key(.character(character))
    }

    /// The keys the prompt takes (`brlapi_acceptKeyRanges`) once every other is left to brltty, so that routing keys
    /// and the user's review commands keep working: typed characters, Enter, Backspace, Escape, each with any
    /// modifier, and the panning commands. Each range is `first...last` with the flags of `last` allowed.
    static let acceptedRanges: [(first: UInt64, last: UInt64)] = [
        (0x20, anyFlags | 0x7E),
        (0xA0, anyFlags | 0xFF),
        (unicodeFlag | 0x100, anyFlags | unicodeFlag | 0x10_FFFF),
        (symbolBackspace, anyFlags | symbolBackspace),
        (symbolLinefeed, anyFlags | symbolLinefeed),
        (symbolEscape, anyFlags | symbolEscape),
        (typeCommand | Command.windowLeft.rawValue, anyFlags | typeCommand | Command.lineEnd.rawValue),
        (typeCommand | Command.returnToCursor.rawValue, anyFlags | typeCommand | Command.returnToCursor.rawValue),
    ]
}

/// What a key from the display does: a key for the session, as the terminal's, or a pan along the line.
enum BrailleInput: Equatable, Sendable {
    case key(Key)
    case pan(BraillePan)
}
