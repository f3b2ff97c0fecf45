import OTCPromptCore

extension AskpassFrontEnd {
    /// The question first, within the opening's first seconds: sudo's, ssh's and git's own lines put a name, a host or
    /// a URL before what they ask ("joe@build.example.org's password" took 4.1 s to hear with its hint, git's
    /// "Password for 'https://…'" 6 s). Each is said as a short label of ours ("SSH password", "Git password");
    /// the caller's line stays drawn above the field (which host asks is always on screen and on the braille line)
    /// and is said on Ctrl-R before anything is typed. nil: the caller's own words are the label.
    ///
    /// Only a password or code question is shortened: a host-key question is a confirmation and never comes here.
    static func shortLabel(
        _ askpass: AskpassPrompt, words: String, login: String?, wording: Wording, isAccount: (String) -> Bool
    ) -> String? {
        guard askpass.kind != .confirmation else { return nil }
        if let sudo = sudoLabel(askpass, words: words, login: login, wording: wording, isAccount: isAccount) {
            return sudo
        }
        guard let origin = askpass.origin else { return ownLineLabel(askpass, words: words, wording: wording) }
        // ssh's keyboard-interactive (PAM) questions: "(joe@host) Verification code", "(joe@host) Password". The
        // question's own words come first; the account and host are shown and said on request.
        guard origin.contains("@") else { return nil }
        return words
    }

    /// sudo's "[sudo] password for joe: " (its default prompt, in the caller's locale) said as "Sudo password": the
    /// account is named only where it is not the login's own (sudo's targetpw or rootpw ask for the target's or
    /// root's), since the user's own name tells them nothing. The account is the question's last word, where it is
    /// one here; any other prompt of sudo's ("[sudo] PIN for the card") keeps its own words (nil).
    static func sudoLabel(
        _ askpass: AskpassPrompt, words: String, login: String?, wording: Wording, isAccount: (String) -> Bool
    ) -> String? {
        let parts = words.split(separator: " ")
        guard askpass.origin == "sudo", parts.count > 1, let last = parts.last.map(String.init), isAccount(last)
        else { return nil }
        return wording.sudoPassword(account: last == login ? nil : last)
    }

    /// ssh's "joe@host's password" and git's "Password for 'https://host'", "Username for 'https://host'": their
    /// exact, untranslated wording (ssh and git do not translate these). The remote account is not named in the
    /// opening: it is not an account here, and "Sudo password for nobody" already takes over 3 s with its hint.
    static func ownLineLabel(_ askpass: AskpassPrompt, words: String, wording: Wording) -> String? {
        if askpass.kind == .secret, words.hasSuffix("'s password") {
            // "NAME@HOST": one word, with a name and a host.
            let account = words.dropLast("'s password".count)
            guard !account.contains(" "), let at = account.firstIndex(of: "@"), at != account.startIndex,
                account.index(after: at) < account.endIndex
            else { return nil }
            return wording.sshPassword
        }
        for (lead, userName) in [("Password for '", false), ("Username for '", true)] where words.hasPrefix(lead) {
            let url = words.dropFirst(lead.count)
            guard url.hasSuffix("'"), url.contains(text: "://") else { return nil }
            return wording.git(userName: userName)
        }
        return nil
    }
}
