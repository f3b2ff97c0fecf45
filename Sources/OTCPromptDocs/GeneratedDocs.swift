/// The files `make docs` writes and the repository commits, each with what the declarations generate now.
public enum GeneratedDocs {
    /// (path from the repository's root, text).
    public static var files: [(path: String, text: String)] {
        [
            ("docs/otc-prompt.1", ManPage.text),
            ("docs/completions/otc-prompt.bash", Completions.bash),
            ("docs/completions/otc-prompt.zsh", Completions.zsh),
            ("docs/completions/otc-prompt.fish", Completions.fish),
        ]
    }
}
