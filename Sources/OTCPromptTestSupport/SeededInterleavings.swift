// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import Testing

/// Thousands of generated cases of a seeded world (the agent's, the touch watcher's), each made from its seed alone:
/// the first that breaks a rule is recorded with its seed, and the environment variable `replay` set to that seed
/// runs that case alone, with its whole story.
public enum SeededInterleavings {
    /// Runs cases 1...`cases`, or only the one `replay` names; `run` is given the seed, and whether that case runs
    /// alone (when its story may be told whole), and answers the case's pattern (the failure mode it was generated
    /// for) and the rule it broke with its story, if any. A full run must reach each of the generator's `patterns`.
    public static func check(
        cases: UInt64, replay: String, patterns: Int, sourceLocation: SourceLocation = #_sourceLocation,
        _ run: (UInt64, _ alone: Bool) -> (pattern: String, failure: String?)
    ) {
        check(cases: cases, replay: replay, paths: patterns, sourceLocation: sourceLocation) { seed, alone in
            let outcome = run(seed, alone)
            return ([outcome.pattern], outcome.failure)
        }
    }

    /// `check` for a world whose case may take several of the paths it was made for (a withdrawal, news, Esc): a
    /// full run must reach each of its `paths`, counted by name.
    public static func check(
        cases: UInt64, replay: String, paths: Int, sourceLocation: SourceLocation = #_sourceLocation,
        _ run: (UInt64, _ alone: Bool) -> (reached: Set<String>, failure: String?)
    ) {
        var seen: [String: Int] = [:]
        let only = getenv(replay).flatMap { UInt64(String(cString: $0)) }
        for seed in only.map({ $0...$0 }) ?? 1...cases {
            let outcome = run(seed, only != nil)
            for path in outcome.reached { seen[path, default: 0] += 1 }
            if let failure = outcome.failure {
                Issue.record("seed \(seed) (\(replay)=\(seed) replays it): \(failure)", sourceLocation: sourceLocation)
                return
            }
        }
        // The generator reaches every failure mode it was made for.
        #expect(only != nil || seen.count == paths, "\(seen)", sourceLocation: sourceLocation)
    }
}

extension SeededRandom {
    /// A number in 0..<`bound` (modulo, so that a seed's case stays the same).
    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    /// True `percent` times in a hundred.
    public mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    /// A whole number of milliseconds in `range`.
    public mutating func milliseconds(_ range: ClosedRange<Int>) -> Duration {
        .milliseconds(range.lowerBound + below(range.count))
    }
}
