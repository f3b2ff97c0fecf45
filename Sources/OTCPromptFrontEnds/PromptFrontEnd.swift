import OTCPromptCore

/// `otc-prompt [PROMPT]`: the field the options describe; its outcome is a `Delivery`.
public enum PromptFrontEnd {
    /// The code field, or with `--charset any` a masked free-text field. A code typed ahead counts: the user
    /// started the prompt and may type before it appears.
    public static func request(_ configuration: PromptConfiguration) -> Request {
        let field =
            configuration.charset == .any
            ? configuration.freeText(label: configuration.label, mask: true) : configuration
        return Request(.field(field), typeAhead: .kept)
    }
}
