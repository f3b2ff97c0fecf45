extension Wording {
    /// What `--agent` says while nothing is asked.
    public var agentWaiting: String { language.catalog.text("agent.waiting") }
    /// How to stop the agent, said with its wait: closing the wait stops it.
    public var agentStopHint: String { language.catalog.text("agent.stopHint") }
    public var agentStopped: String { language.catalog.text("agent.stopped") }

    /// "2 more waiting.": said with a request when others wait behind it.
    public func agentMoreWaiting(_ count: Int) -> String {
        language.catalog.plural("agent.moreWaiting", count: count, count)
    }

    /// Said when the request being asked was withdrawn (its file removed, its process gone, its time passed).
    public var agentWithdrawn: String { language.catalog.text("agent.withdrawn") }

    /// The label of a request that brings no message.
    public var agentDefaultLabel: String { language.catalog.text("agent.defaultLabel") }

    /// What `Id=` says the request is for: "For disk sda2." from the system; from a program of the user's, the
    /// same claim said as the program's, after "Not from the system": any program could claim the boot disk, and
    /// the user must hear that it is not the system asking before they hear what for.
    public func agentPurpose(_ purpose: AskPurpose, from origin: AskOrigin) -> String {
        switch (purpose, origin) {
        case (.disk(let name), .system): language.catalog.text("agent.forDisk", name)
        case (.home(let user), .system): language.catalog.text("agent.forHome", user)
        case (.disk(let name), .user): language.catalog.text("agent.userSaysDisk", name)
        case (.home(let user), .user): language.catalog.text("agent.userSaysHome", user)
        }
    }
}

extension Wording {
    /// A question of the user's own programs, marked as theirs before its words: "A program of yours asks: Passphrase
    /// for backup"; a notice: "A program of yours says: …". The system never asks in these words.
    public func agentFromUser(_ question: String, kind: AskFile.Kind) -> String {
        language.catalog.text(kind == .notice ? "agent.userSays" : "agent.userAsks", question)
    }

    /// The other lines of a program's message, as one line after its marking: "Not from the system: a program of
    /// yours wrote: For disk sda2."
    public func agentUserWrote(_ lines: String) -> String {
        language.catalog.text("agent.userWrote", lines)
    }

    /// Said when a request of the system's is skipped by an agent that is not root.
    public var agentNeedsRoot: String { language.catalog.text("agent.needsRoot") }
}

extension Wording {
    /// Keys dropped because they came before the user had heard that the request had changed.
    public func keysDropped(_ count: Int) -> String { language.catalog.plural("keysDropped", count: count, count) }
    /// A key that types nothing in a field (an arrow, a function key, Alt and a key), said rather than dropped unsaid.
    public var keyNotTyped: String { language.catalog.text("keyNotTyped") }
    /// Tab in a field that cannot keep it: a code, or text shown as typed.
    public var tabNotTyped: String { language.catalog.text("tabNotTyped") }
}

extension Wording {
    /// "New request waiting: disk sda2." (`first`), said at once while another request is answered; several at once
    /// are counted instead.
    public func agentNewRequests(_ count: Int, first: String) -> String {
        if count <= 1 { return language.catalog.text("agent.newRequest", first) }
        return language.catalog.plural("agent.newRequests", count: count, count)
    }

    /// What waits besides the request being answered, after a readback: "2 more waiting: disk sda2, Backup.", the
    /// first few (`subjects`) named; "Nothing else waiting." when none.
    public func agentWaiting(_ count: Int, subjects: [String]) -> String {
        guard count > 0 else { return language.catalog.text("agent.nothingElseWaiting") }
        guard !subjects.isEmpty else { return agentMoreWaiting(count) }
        let named = subjects.prefix(Self.agentSubjectsNamed).joined(separator: ", ")
        return language.catalog.plural("agent.moreWaitingFor", count: count, count, named)
    }

    /// How many waiting requests a readback names: the count says how many more there are.
    public static let agentSubjectsNamed = 3

    /// What a request is for, in a list or news: "disk sda2"; its question when it names nothing the system vouches
    /// for (a program's claim is no subject).
    public func agentSubject(_ purpose: AskPurpose?, from origin: AskOrigin, question: String) -> String {
        switch (purpose, origin) {
        case (.disk(let name)?, .system): language.catalog.text("agent.disk", name)
        case (.home(let user)?, .system): language.catalog.text("agent.home", user)
        default: String(question.prefix(Self.agentSubjectLimit))
        }
    }

    /// The longest question said as a request's subject, in characters.
    public static let agentSubjectLimit = 60

    /// Said to a key on the wait, before how to stop the agent: there is nothing to answer.
    public var agentNothingToAnswer: String { language.catalog.text("agent.nothingToAnswer") }
    /// Said with a request part of which was left out (`AskFile.leftSomethingOut`).
    public var agentLeftOut: String { language.catalog.text("agent.leftOut") }
    /// A watched directory was removed or moved away; it is watched again when it comes back.
    public func agentDirectoryGone(_ path: String) -> String { language.catalog.text("agent.directoryGone", path) }
    public func agentDirectoryBack(_ path: String) -> String { language.catalog.text("agent.directoryBack", path) }
}
