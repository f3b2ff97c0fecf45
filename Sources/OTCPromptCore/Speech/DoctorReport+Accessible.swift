extension DoctorReport {
    /// What `ACCESSIBLE` makes of the screen (`TerminalCapabilities.accessibleIsSet`): a user who set it to turn
    /// plain lines off ("0") reads here that it counts as unset, and one who never heard of it reads what it does.
    public static func accessibleLine(_ value: String?) -> String {
        let shown = value.map { "ACCESSIBLE=\(UntrustedText.visible($0))" }
        if TerminalCapabilities.accessibleIsSet(value) {
            return "Screen: plain lines, appended, no terminal queries, because \(shown ?? "ACCESSIBLE") is set."
        }
        let how = "set ACCESSIBLE=1 for plain lines, appended, with no terminal queries"
        guard let shown else { return "Screen: as --style says; ACCESSIBLE is not set (\(how))." }
        return "Screen: as --style says; \(shown) counts as not set, as empty, 0, false and no do (\(how))."
    }
}
