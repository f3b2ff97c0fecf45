/// The version printed by `--version`.
enum OTCPromptVersion {
    static let current = "0.1.0"
}
