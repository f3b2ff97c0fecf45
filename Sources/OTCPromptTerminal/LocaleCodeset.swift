import Glibc
import OTCPromptCore

/// The character set of the user's locale, as the C library sees it, without changing the
/// process's own locale (espeak-ng and the rest keep the "C" locale they start with).
public enum LocaleCodeset {
    /// The codeset `LC_ALL`, `LC_CTYPE` or `LANG` selects (glibc's order), e.g. "UTF-8",
    /// "ISO-8859-1", "ANSI_X3.4-1968". When that locale is not installed, the codeset its name
    /// spells ("pt_BR.ISO-8859-1" → "ISO-8859-1"): the name still says what the terminal speaks.
    /// The corresponding C functions are `newlocale`, `nl_langinfo_l` and `freelocale`.
    public static func current(environment: [String: String]) -> String {
        if let locale = newlocale(LC_CTYPE_MASK, "", nil) {
            defer { freelocale(locale) }
            if let name = nl_langinfo_l(nl_item(CODESET), locale) { return String(cString: name) }
        }
        let name = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        return TerminalEncoding.codeset(inLocaleName: name ?? "")
    }

    /// The terminal's encoding, or nil when the locale's codeset is one otc-prompt cannot transcode.
    public static func encoding(environment: [String: String]) -> TerminalEncoding? {
        TerminalEncoding(codeset: current(environment: environment))
    }
}
