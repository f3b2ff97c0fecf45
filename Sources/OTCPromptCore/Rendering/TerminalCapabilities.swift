/// What the terminal can show, read from the environment alone (pure: the caller passes the
/// environment), so the prompt never writes a sequence the terminal would print as garbage.
public struct TerminalCapabilities: Equatable, Sendable {
    /// TERM is unset, empty or "dumb": no cursor movement, no escape sequences of any kind.
    public var isDumb: Bool
    public var colorDepth: ColorDepth
    /// The locale's character encoding is UTF-8, so the box outlines (U+2595, U+258F) can be drawn.
    public var isUTF8: Bool
    /// `ACCESSIBLE` is set (`accessibleIsSet`): the user wants plain, append-only output that a screen reader reads
    /// line by line, whatever the terminal could draw.
    public var wantsPlainOutput: Bool

    public init(isDumb: Bool, colorDepth: ColorDepth, isUTF8: Bool, wantsPlainOutput: Bool = false) {
        self.wantsPlainOutput = wantsPlainOutput
        self.isDumb = isDumb
        self.colorDepth = isDumb ? .none : colorDepth
        self.isUTF8 = isUTF8
    }

    /// Reads TERM, COLORTERM, NO_COLOR and LC_ALL / LC_CTYPE / LANG.
    ///
    /// - NO_COLOR set to anything non-empty means no colour (no-color.org), whatever else is set.
    /// - COLORTERM=truecolor or 24bit, or a TERM ending in "-direct", means 24-bit colour.
    /// - A TERM containing "256color" means the xterm-256 palette; any other TERM, 16 colours.
    public init(environment: [String: String]) {
        let term = environment["TERM"] ?? ""
        let isDumb = term.isEmpty || term == "dumb"
        let colorTerm = (environment["COLORTERM"] ?? "").lowercased()
        let depth: ColorDepth
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty {
            depth = .none
        } else if colorTerm == "truecolor" || colorTerm == "24bit" || term.hasSuffix("-direct") {
            depth = .trueColor
        } else if term.contains(text: "256color") {
            depth = .ansi256
        } else {
            depth = .ansi16
        }
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        let encoding = (locale ?? "").lowercased()
        self.init(
            isDumb: isDumb, colorDepth: depth,
            isUTF8: encoding.contains(text: "utf-8") || encoding.contains(text: "utf8"),
            wantsPlainOutput: Self.accessibleIsSet(environment["ACCESSIBLE"]))
    }

    /// Whether `ACCESSIBLE` is set as the tools that honour it read it: not empty and not a false word ("0",
    /// "false", "no", any case), as the GitHub CLI reads its GH_ACCESSIBLE_PROMPTER and huh's examples read
    /// ACCESSIBLE (strconv.ParseBool), so that `ACCESSIBLE=0` turns it off rather than on.
    public static func accessibleIsSet(_ value: String?) -> Bool {
        guard let value, !value.isEmpty else { return false }
        return !["0", "false", "no"].contains(value.lowercased())
    }

    /// Whether the boxes style is the better default here: 256 colours or more (a 16-colour
    /// terminal such as the Linux console collapses the gradient to one colour and its console
    /// font often lacks the outline glyphs) and a UTF-8 locale.
    public var prefersBoxes: Bool { !isDumb && !wantsPlainOutput && colorDepth >= .ansi256 && isUTF8 }
}

extension Character {
    /// How many terminal columns this character takes (`TerminalWidth`). Used to erase and to step
    /// back over what was drawn; codes are ASCII, but `--charset any` (askpass passwords) may hold anything.
    var terminalColumns: Int { TerminalWidth.columns(of: self) }
}
