/// The requests refused in one pass over the queue, told as one line per reason with a count: a directory of
/// thousands of malformed files is a handful of lines on the terminal and in the system log, not one a file.
///
/// Pure: the agent records each refusal with its reason's words, and takes the lines before it asks or waits.
public struct RefusalTally: Equatable, Sendable {
    private struct Reason: Equatable, Sendable {
        var reason: String
        var first: String
        var count: Int
    }

    private var reasons: [Reason] = []

    public init() {}

    /// The request `name` was refused because of `reason` ("it is not a request (…)").
    public mutating func record(_ name: String, reason: String) {
        if let index = reasons.firstIndex(where: { $0.reason == reason }) {
            reasons[index].count += 1
        } else {
            reasons.append(Reason(reason: reason, first: name, count: 1))
        }
    }

    public var isEmpty: Bool { reasons.isEmpty }

    /// One line per reason, in the order they were first met ("ask.x refused: why", or "4100 requests refused:
    /// why (ask.x and others)"); the tally is empty after.
    public mutating func take() -> [String] {
        defer { reasons = [] }
        return reasons.map {
            $0.count == 1
                ? "\($0.first) refused: \($0.reason)"
                : "\($0.count) requests refused: \($0.reason) (\($0.first) and others)"
        }
    }
}
