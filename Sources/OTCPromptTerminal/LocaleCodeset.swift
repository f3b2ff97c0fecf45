import Glibc
import OTCPromptCore
import OTCPromptSystem

/// The character set of the user's locale, as the C library sees it, without changing the
/// process's own locale (espeak-ng and the rest keep the "C" locale they start with).
public enum LocaleCodeset {
    /// The codeset of the locale that `LC_ALL`, `LC_CTYPE` or `LANG` in `environment` names (the
    /// first set and not empty, glibc's order), e.g. "UTF-8", "ISO-8859-1", "ANSI_X3.4-1968" for C.
    /// When that locale is not installed (`LOCPATH` is honoured), the codeset its name spells
    /// ("pt_BR.ISO-8859-1" → "ISO-8859-1"): the name still says what the terminal speaks.
    /// The corresponding C functions are `newlocale`, `nl_langinfo_l` and `freelocale`.
    public static func current(environment: [String: String]) -> String {
        let name = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? "C"
        if let locale = newlocale(LC_CTYPE_MASK, name, nil) {
            defer { freelocale(locale) }
            if let codeset = nl_langinfo_l(nl_item(CODESET), locale) { return String(cString: codeset) }
        }
        return TerminalEncoding.codeset(inLocaleName: name)
    }

    /// The terminal's encoding, or nil when the locale's codeset is one otc-prompt cannot transcode.
    public static func encoding(environment: [String: String]) -> TerminalEncoding? {
        TerminalEncoding(codeset: current(environment: environment))
    }
}
