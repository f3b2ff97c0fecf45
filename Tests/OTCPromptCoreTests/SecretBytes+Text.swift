import OTCPromptCore

extension SecretBytes {
    /// The secret as text, for a test's expectations only.
    var text: String { withUnsafeBytes { String(decoding: $0, as: UTF8.self) } }
}

extension PromptEffect {
    var isSubmit: Bool {
        if case .submit = self { true } else { false }
    }
}
