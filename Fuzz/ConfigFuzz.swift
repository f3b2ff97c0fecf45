// libFuzzer target for the configuration file reader: any bytes → ConfigReader.read.
// Built by Fuzz/run.sh together with Sources/OTCPromptSettings/ConfigFile/ConfigReader*.swift (no imports there).
//
// The reader must never crash, report lines in order inside the file, keep each key once, and never put a
// control character in a message (they are printed on the user's terminal).

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
        require(!problem.message.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "control in message")
        previous = problem.line
    }
    // Every line the reader took is a line it did not also reject.
    require(Set(entries.map(\.line)).isDisjoint(with: problems.map(\.line)), "a line both read and rejected")
    return 0
}
