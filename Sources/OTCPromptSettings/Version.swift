/// The version printed by `--version` and named in the man page; `packaging/version` reads it from here.
public enum OTCPromptVersion {
    public static let current = "0.1.0"
    /// The date of this version, the man page's date (so that `make docs` writes the same page every day).
    public static let date = "November 23, 2026"
}
