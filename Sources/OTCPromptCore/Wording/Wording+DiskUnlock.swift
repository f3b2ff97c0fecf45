extension Wording {
    /// The label of the disk passphrase's field: "Unlock disk sda2"; without a name, "Unlock disk".
    public func unlockDisk(_ disk: String?) -> String {
        let catalog = language.catalog
        return disk.map { catalog.text("diskUnlock.label", $0) } ?? catalog.text("diskUnlock.labelNoName")
    }

    /// The news a second try opens with: "Wrong passphrase, try 2 of 3."; no limit: "Wrong passphrase, try 2."
    public func wrongPassphrase(attempt: Int, of maximum: Int?) -> String {
        let catalog = language.catalog
        guard let maximum else { return catalog.text("diskUnlock.wrongPassphraseNoLimit", attempt) }
        return catalog.text("diskUnlock.wrongPassphrase", attempt, maximum)
    }
}
