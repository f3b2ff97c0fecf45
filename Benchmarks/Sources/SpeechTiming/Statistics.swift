import Glibc

/// Milliseconds on the monotonic clock.
public func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1_000_000
}

public func sleep(milliseconds: Double) {
    usleep(useconds_t(milliseconds * 1000))
}

/// Median and nearest-rank percentiles of a sample of durations.
public struct Summary {
    public let count: Int
    public let median: Double
    public let p99: Double
    public let min: Double
    public let max: Double

    public init(_ values: [Double]) {
        let sorted = values.sorted()
        func rank(_ p: Double) -> Double {
            sorted.isEmpty
                ? .nan : sorted[Swift.min(sorted.count - 1, Int((p * Double(sorted.count)).rounded(.up)) - 1)]
        }
        count = sorted.count
        median =
            sorted.isEmpty
            ? .nan
            : (sorted.count % 2 == 1
                ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2)
        p99 = rank(0.99)
        min = sorted.first ?? .nan
        max = sorted.last ?? .nan
    }

    public func line(_ name: String, unit: String = "ms", target: String) -> String {
        return
            "\(name): median \(f(median)) \(unit), p99 \(f(p99)), min \(f(min)), max \(f(max)) (n=\(count))  target \(target)"
    }
}

/// `value` with three decimals (no Foundation).
public func f(_ value: Double) -> String {
    guard value.isFinite else { return "\(value)" }
    let thousandths = Int((value * 1000).rounded())
    let fraction = String(abs(thousandths) % 1000)
    return (thousandths < 0 ? "-" : "") + "\(abs(thousandths) / 1000)."
        + String(repeating: "0", count: 3 - fraction.count) + fraction
}
