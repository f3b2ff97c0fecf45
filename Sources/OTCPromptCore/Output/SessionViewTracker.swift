/// Follows a session's effects and snapshots to what it presents (`SessionView`): the words of the last announcement
/// stay as news until a key changes the field, and Ctrl-R's readback until anything else is said. The loop notes
/// every effect it carries out and asks for the view when it draws.
public struct SessionViewTracker: Sendable {
    /// The caller's lines drawn above the field (a retry's news, what the question is about): the opening's news.
    public var linesAbove: [String]
    private var news: String?
    /// Ctrl-R's words, while its answer stands.
    private var readBack: String?
    /// The view the outputs were last shown (`change(of:)`).
    private var presented: SessionView?

    public init(linesAbove: [String] = []) {
        self.linesAbove = linesAbove
    }

    /// Takes one effect the loop carries out.
    public mutating func note(_ effect: PromptEffect) {
        switch effect {
        case .announce(let announcement): note(announcement)
        case .show(let line):
            news = UntrustedText.visible(line)
            readBack = nil
        case .redraw, .submit, .cancel, .check, .fail, .timeout, .confirmed, .checkError: break
        }
    }

    private mutating func note(_ announcement: Announcement) {
        readBack = nil
        switch announcement.event {
        case .prompt:
            news = joined(linesAbove)
        case .readback:
            readBack = announcement.text
        case .digit, .delete, .clear, .paste:
            // The field shows what the key did.
            news = nil
        case .reject, .full, .incomplete, .complete, .cancel, .help, .checking, .checkFailed, .checkError, .timeLeft,
            .timeout, .confirm, .notice, .unreadable:
            news = joined(announcement.lines)
        }
    }

    /// What `snapshot` presents with the news and readback noted so far. Of a masked field only the count is taken.
    public func view(of snapshot: FieldSnapshot) -> SessionView {
        let field: SessionView.Field? =
            snapshot.length == 0
            ? nil : snapshot.mask ? .masked(count: snapshot.characters.count) : .characters(snapshot.characters)
        return SessionView(
            label: snapshot.drawnLabel, field: field, cursor: field?.count, news: news,
            readBack: readBack.map { Self.readBack($0, of: snapshot) })
    }

    /// The view of `snapshot` when it differs from the one last returned here; nil when the outputs show it already.
    public mutating func change(of snapshot: FieldSnapshot) -> SessionView? {
        let view = view(of: snapshot)
        guard view != presented else { return nil }
        presented = view
        return view
    }

    /// The outputs were given back: the next view is shown whether or not it changed.
    public mutating func forgetPresented() {
        presented = nil
    }

    /// The characters in the groups they are said in (a code's as the full code breaks, free text's by its count);
    /// a masked or empty field's words ("4 entered", "empty").
    private static func readBack(_ words: String, of snapshot: FieldSnapshot) -> SessionView.ReadBack {
        guard !snapshot.mask, !snapshot.characters.isEmpty else { return .words(UntrustedText.visible(words)) }
        let isCode = snapshot.length <= PromptConfiguration.lengthRange.upperBound
        return .groups(
            CodeGrouping.characterGroups(
                snapshot.characters, length: isCode ? snapshot.length : snapshot.characters.count))
    }

    /// The lines as one, each made visible; the first letter a capital, as a line read on its own begins.
    private func joined(_ lines: [String]) -> String? {
        let visible = lines.map { UntrustedText.visible($0).droppingOuterWhitespace() }.filter { !$0.isEmpty }
        return visible.isEmpty ? nil : Wording.capitalized(visible.joined(separator: " "))
    }
}
