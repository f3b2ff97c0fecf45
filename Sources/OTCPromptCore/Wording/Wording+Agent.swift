extension Wording {
    /// What `--agent` says while nothing is asked.
    public var agentWaiting: String { language.catalog.text("agent.waiting") }

    /// "2 more waiting.": said with a request when others wait behind it.
    public func agentMoreWaiting(_ count: Int) -> String {
        language.catalog.plural("agent.moreWaiting", count: count, count)
    }

    /// Said when the request being asked was withdrawn (its file removed, its process gone, its time passed).
    public var agentWithdrawn: String { language.catalog.text("agent.withdrawn") }

    /// The label of a request that brings no message.
    public var agentDefaultLabel: String { language.catalog.text("agent.defaultLabel") }

    /// What `Id=` says the request is for: "For disk sda2."
    public func agentPurpose(_ purpose: AskPurpose) -> String {
        switch purpose {
        case .disk(let name): language.catalog.text("agent.forDisk", name)
        case .home(let user): language.catalog.text("agent.forHome", user)
        }
    }
}

extension Wording {
    /// Said when a request of the system's is skipped by an agent that is not root.
    public var agentNeedsRoot: String { language.catalog.text("agent.needsRoot") }
}
