/// The words of every announcement, in one language. Codes are always spoken character by
/// character, grouped, never as a number.
///
/// STUB: replaced by the full wording (en, pt).
public struct Wording: Sendable {
    public let language: Language

    public init(language: Language) {
        self.language = language
    }

    /// The field's label when none is given.
    public var defaultLabel: String {
        switch language {
        case .en: return "Verification code"
        case .pt: return "Código de verificação"
        }
    }
}
