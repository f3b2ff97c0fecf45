/// Follows a session's effects and snapshots to what it presents (`SessionView`): the words of the last announcement
/// stay as news until a key changes the field, and Ctrl-R's readback until anything else is said. The loop notes
/// every effect it carries out and asks for the view when it draws.
public struct SessionViewTracker: Sendable {
    /// The caller's lines drawn above the field (a retry's news, what the question is about): the opening's news.
    public var linesAbove: [String]
    private var news: String?
    private var readBack: PendingReadBack?
    /// The view the outputs were last shown (`change(of:)`).
    private var presented: SessionView?

    /// Ctrl-R's announcement, kept until the view is asked for: the groups it was said in, or its words.
    private struct PendingReadBack: Sendable {
        var groupSizes: [Int]?
        var words: String
    }

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
            readBack = PendingReadBack(groupSizes: Self.groupSizes(of: announcement), words: announcement.text)
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

    /// The characters in the groups they were said in, when the announcement spelled exactly the field's
    /// characters; otherwise (masked, empty, spelled otherwise) its words.
    private static func readBack(_ pending: PendingReadBack, of snapshot: FieldSnapshot) -> SessionView.ReadBack {
        guard !snapshot.mask, let sizes = pending.groupSizes, sizes.reduce(0, +) == snapshot.characters.count
        else { return .words(UntrustedText.visible(pending.words)) }
        var groups: [[Character]] = []
        var start = 0
        for size in sizes {
            groups.append(Array(snapshot.characters[start..<start + size]))
            start += size
        }
        return .groups(groups)
    }

    /// The sizes of the groups a readback spelled, nil when it spelled nothing.
    private static func groupSizes(of announcement: Announcement) -> [Int]? {
        for case .characters(let groups) in announcement.segments { return groups.map(\.count) }
        return nil
    }

    private func joined(_ lines: [String]) -> String? {
        let visible = lines.map { UntrustedText.visible($0).droppingOuterWhitespace() }.filter { !$0.isEmpty }
        return visible.isEmpty ? nil : visible.joined(separator: " ")
    }
}
