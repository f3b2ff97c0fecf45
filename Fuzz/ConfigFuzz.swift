// libFuzzer target for the configuration file reader: any bytes → ConfigReader.read.
// Built by Fuzz/run.sh together with Sources/OTCPromptSettings/ConfigFile/ConfigReader*.swift (no imports there).
//
// The reader must never crash, report lines in order inside the file, keep each key once, and keep its messages
// short (they quote the file; `UntrustedText` makes them safe to show, outside this target).

func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("invariant broken: \(message())") }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let lineCount = text.utf8.reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
    let (entries, problems) = ConfigReader.read(text)
    var keys = Set<String>()
    var previous = 0
    for entry in entries {
        require(entry.line > previous && entry.line <= lineCount, "entry line \(entry.line) out of order or range")
        require(keys.insert(entry.key).inserted, "key \(entry.key) kept twice")
        previous = entry.line
    }
    previous = 0
    for problem in problems {
        require(problem.line > previous && problem.line <= lineCount, "problem line \(problem.line) out of order")
        require(
            problem.message.unicodeScalars.count < 400, "a message of \(problem.message.unicodeScalars.count) scalars")
        previous = problem.line
    }
    // Every line the reader took is a line it did not also reject.
    require(Set(entries.map(\.line)).isDisjoint(with: problems.map(\.line)), "a line both read and rejected")
    return 0
}
