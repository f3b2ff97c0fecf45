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
