// libFuzzer target for what other programs hand the prompt as requests: an ask file's bytes (`AskFile.parse`, as a
// password agent reads one from a directory) and the environment cryptroot gives a keyscript (`CryptsetupRequest`).
// Built by Fuzz/run.sh together with the OTCPromptCore sources (one module, no package build).
//
// The whole input is one ask file. The same bytes, split into lines, are also the CRYPTTAB_* variables: each line's
// first byte chooses the variable (modulo 4), the rest is its value. The last 8 bytes, when there are that many, are
// the clock (CLOCK_MONOTONIC µs) the ask file's time left is measured at.
//
// Nothing may trap. A parsed request names a plain absolute socket, keeps what it rendered when read again, never has
// a negative time left, settles once written out and read again; a disk request asks a try from 1 within its limit (at most 9999), and each line it says about
// a value it could not use is one short line of visible text.

func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("invariant broken: \(message())") }
}

let cryptsetupNames = ["CRYPTTAB_TRIED", "CRYPTTAB_OPTION_tries", "CRYPTTAB_SOURCE", "CRYPTTAB_NAME"]

func checkAskFile(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let file = try? AskFile.parse(bytes) else { return }
    require(AskFile.isPlainAbsolutePath(file.socket), "a socket that is no plain absolute path: \(file.socket)")
    require(file.pid.map { $0 > 0 } ?? true, "a process number that is not positive")
    require(file.message.map { !$0.isEmpty } ?? true, "an empty message kept")
    var clock: UInt64 = 0
    if bytes.count >= 8 { for byte in bytes.suffix(8) { clock = clock << 8 | UInt64(byte) } }
    for now in [0, clock, UInt64.max] {
        if let left = file.timeLeft(atMicroseconds: now) {
            require(left >= .zero, "a negative time left")
            require((left == .zero) == file.hasExpired(atMicroseconds: now), "time left and expiry disagree")
        }
    }
    // A request written out (as a poster writes one) parses to the same keys, and its texts settle after one round
    // (blanks at a line's ends and NUL are not kept).
    guard let again = try? AskFile.parse(Array(file.rendered().utf8)),
        let third = try? AskFile.parse(Array(again.rendered().utf8))
    else { fatalError("invariant broken: a rendered request does not parse") }
    require(
        again.socket == file.socket && again.pid == file.pid && again.notAfter == file.notAfter,
        "keys changed: \(file.socket) \(String(describing: file.pid)) \(String(describing: file.notAfter)) -> \(again.socket) \(String(describing: again.pid)) \(String(describing: again.notAfter))"
    )
    require(again.echo == file.echo && again.kind == file.kind, "kind changed")
    require(
        third.message == again.message && third.okLabel == again.okLabel && third.notOKLabel == again.notOKLabel
            && third.cancelLabel == again.cancelLabel, "a rendered request's texts change each time it is read")
    if let purpose = AskPurpose(id: file.id) {
        switch purpose {
        case .disk(let name), .home(let name):
            require(!name.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "control")
        }
    }
}

func checkCryptsetup(_ bytes: UnsafeBufferPointer<UInt8>) {
    var environment: [String: String] = [:]
    for line in bytes.split(separator: 0x0A) where !line.isEmpty {
        let name = cryptsetupNames[Int(line[line.startIndex]) % cryptsetupNames.count]
        environment[name] = String(decoding: line.dropFirst(), as: UTF8.self)
    }
    let request = CryptsetupRequest(environment: environment)
    require(request.attempt >= 1, "try \(request.attempt)")
    if let limit = request.maximumAttempts {
        require(CryptsetupRequest.triesRange.contains(limit) && limit > 0, "a limit of \(limit)")
        require(request.attempt <= limit, "try \(request.attempt) of \(limit)")
    } else {
        require(request.attempt <= CryptsetupRequest.triesRange.upperBound, "try \(request.attempt) of no limit")
    }
    for line in request.problems {
        require(line.unicodeScalars.count < 200, "a line of \(line.unicodeScalars.count) scalars")
        require(!line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "control")
    }
    let language = Language.allCases[bytes.count % Language.allCases.count]
    var session = PromptSession(configuration: request.configuration(language: language))
    require(!session.start().isEmpty, "no opening")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequests(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let bytes = UnsafeBufferPointer(start: start, count: count)
    checkAskFile(bytes)
    checkCryptsetup(bytes)
    return 0
}
