extension Wording {
    /// The label of one of systemd's requests, in the user's words: "Passphrase for disk root", "Security key PIN for
    /// disk root" (a FIDO2 key's, its disk known from its asker: `SystemAsk.cryptsetupVolume`), "Security key PIN".
    public func systemAskLabel(_ asked: SystemAsk) -> String {
        let catalog = language.catalog
        let disk = asked.disk ?? "?"
        switch asked.secret {
        case .passphrase: return catalog.text("systemAsk.passphrase", disk)
        case .recoveryKey: return catalog.text("systemAsk.recoveryKey", disk)
        case .passphraseOrRecoveryKey: return catalog.text("systemAsk.passphraseOrRecoveryKey", disk)
        case .securityTokenPIN(let token?): return catalog.text("systemAsk.namedTokenPIN", token, disk)
        case .securityTokenPIN(nil):
            guard let disk = asked.disk else { return catalog.text("systemAsk.securityTokenPIN") }
            return catalog.text("systemAsk.securityKeyPIN", disk)
        case .tpm2PIN: return catalog.text("systemAsk.tpm2PIN")
        case .tokenPIN: return catalog.text("systemAsk.tokenPIN")
        }
    }

    /// What is said before the label: that it is asked again to confirm, that a token's next wrong PIN locks it or
    /// that wrong PINs were typed before, that a FIDO2 key may need a touch once its PIN is given.
    public func systemAskDetails(_ asked: SystemAsk) -> [String] {
        let catalog = language.catalog
        var details: [String] = []
        if asked.isVerification { details.append(catalog.text("systemAsk.again")) }
        if asked.isLastTry {
            details.append(catalog.text("systemAsk.lastTry"))
        } else if asked.hadWrongTries {
            details.append(catalog.text("systemAsk.wrongBefore"))
        }
        if asked.secret == .securityTokenPIN(token: nil) { details.append(catalog.text("systemAsk.mayNeedTouch")) }
        return details
    }

    /// The news a try opens with when the same process asks again: "Wrong passphrase, try 2.", "Wrong PIN, try 2."
    public func systemAskRetry(_ asked: SystemAsk, attempt: Int) -> String {
        let catalog = language.catalog
        switch asked.secret {
        case .passphrase: return catalog.text("diskUnlock.wrongPassphraseNoLimit", attempt)
        case .recoveryKey: return catalog.text("systemAsk.wrongRecoveryKey", attempt)
        case .passphraseOrRecoveryKey: return catalog.text("systemAsk.wrongPassphraseOrRecoveryKey", attempt)
        case .securityTokenPIN, .tpm2PIN, .tokenPIN: return catalog.text("systemAsk.wrongPIN", attempt)
        }
    }
}
