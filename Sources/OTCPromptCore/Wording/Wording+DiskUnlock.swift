extension Wording {
    /// The label of the disk passphrase's field: "Unlock disk sda2".
    public func unlockDisk(_ disk: String?) -> String {
        diskUnlockPhrases.unlockDisk(disk)
    }

    /// The news a second try opens with: "Wrong passphrase, try 2 of 3."; no limit: "Wrong passphrase, try 2."
    public func wrongPassphrase(attempt: Int, of maximum: Int?) -> String {
        diskUnlockPhrases.wrongPassphrase(attempt, maximum)
    }

    var diskUnlockPhrases: DiskUnlockPhrases {
        switch language {
        case .en: .english
        case .pt: .portuguese
        }
    }
}

/// One language's words for the disk passphrase asked at boot (`CryptsetupRequest`).
struct DiskUnlockPhrases: Sendable {
    /// "Unlock disk sda2"; without a name: "Unlock disk"
    var unlockDisk: @Sendable (_ disk: String?) -> String
    /// "Wrong passphrase, try 2 of 3." (a whole sentence)
    var wrongPassphrase: @Sendable (_ attempt: Int, _ maximum: Int?) -> String
}
