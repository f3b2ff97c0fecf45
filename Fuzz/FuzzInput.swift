// libFuzzer target for the input path: raw terminal bytes → KeyDecoder → PasteScanner.
// Built by Fuzz/run.sh together with the OTCPromptCore sources (one module, no package build).
//
// Input layout: byte 0 chooses the paste field (bit 0: alnum, bits 1–4: length 1–12); then
// repeatedly a control byte and up to (control & 0x1F) bytes fed as one read; control bit 0x80
// asks for the Esc-delay flush after that read when the decoder awaits more bytes; control bit
// 0x40 closes an open paste after that read (the caller's paste timeout); control bit 0x20 says the
// read came from a terminal without bracketed paste, so its keys go through `UnmarkedPaste` and
// `UnmarkedPasteJoin` (reads 1 ms apart; a flush bit is also a quiet line past the join window).
//
// Every key also goes to a PromptSession (configuration bits 5-7: mask, auto-submit, check), which
// must keep its field within its length and charset, submit only whole codes, and end at most once.

/// Stops the fuzzer with a message when an invariant is broken.
func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("invariant broken: \(message())") }
}

/// The reads described by the input, and where the caller flushes.
struct FuzzReads {
    var configuration: UInt8 = 0
    var reads: [(bytes: [UInt8], flushAfter: Bool, endPasteAfter: Bool, unmarked: Bool)] = []

    init(_ data: UnsafeBufferPointer<UInt8>) {
        guard let first = data.first else { return }
        configuration = first
        var index = 1
        while index < data.count {
            let control = data[index]
            index += 1
            let end = min(data.count, index + Int(control & 0x1F))
            reads.append((Array(data[index..<end]), control & 0x80 != 0, control & 0x40 != 0, control & 0x20 != 0))
            index = end
        }
    }

    var stream: [UInt8] { reads.flatMap(\.bytes) }
}

/// Drives a real session with the decoded keys and checks what it holds and says.
struct SessionChecker {
    var session: PromptSession
    var ended = false

    init(charset: CodeCharset, length: Int, configuration: UInt8) {
        session = PromptSession(
            configuration: PromptConfiguration(
                length: length, charset: charset, mask: configuration & 0x20 != 0,
                autoSubmit: configuration & 0x40 != 0, checksCode: configuration & 0x80 != 0, attempts: 2))
        _ = session.start()
    }

    mutating func apply(_ key: Key) {
        var effects = session.handle(key)
        if case .unmarkedPaste = key {
            // A paste that cannot be told from typing never submits or checks by itself.
            require(
                !effects.contains(where: {
                    switch $0 {
                    case .submit, .check: true
                    default: false
                    }
                }), "an unmarked paste was submitted without Enter")
        }
        // A running check is answered at once: rejected when the code starts with 0, else accepted.
        if effects.contains(where: { if case .check = $0 { return true } else { return false } }) {
            effects +=
                session.field.characters.first == "0"
                ? session.checkRejected(firstErrorLine: String(session.field.characters))
                : session.checkAccepted()
        }
        let field = session.field
        require(field.count <= field.length, "field longer than its length")
        require(field.characters.allSatisfy { field.charset.accept($0) == $0 }, "field outside its charset")
        for effect in effects {
            switch effect {
            case .announce(let announcement):
                require(!announcement.text.isEmpty, "an empty announcement")
            case .submit(let code):
                require(!ended, "submitted after the end")
                require(code.count == field.length, "submitted an incomplete code")
                ended = true
            case .cancel, .fail, .timeout:
                require(!ended, "ended twice")
                ended = true
            default:
                break
            }
        }
        if ended { require(session.handle(key).isEmpty, "keys after the end did something") }
    }
}

/// Joins consecutive paste pieces, whose sizes depend on the reads.
func mergingPasteText(_ keys: [Key]) -> [Key] {
    var merged: [Key] = []
    for key in keys {
        if case .pasteText(let more) = key, case .pasteText(let text)? = merged.last {
            merged[merged.count - 1] = .pasteText(text + more)
        } else {
            merged.append(key)
        }
    }
    return merged
}

/// Checks the key grammar and streams every paste through a scanner, checking its bounds.
struct KeyStreamChecker {
    let charset: CodeCharset
    let length: Int
    var scanner: PasteScanner?

    mutating func check(_ key: Key) {
        switch key {
        case .pasteBegan:
            require(scanner == nil, "paste began twice")
            scanner = PasteScanner(charset: charset, length: length)
        case .pasteText(let text):
            require(scanner != nil, "paste text outside a paste")
            require(!text.isEmpty, "empty paste piece")
            scanner?.scan(text)
            require((scanner?.retainedCharacterCount ?? 0) <= 5 * length, "scanner window exceeded")
        case .pasteEnded:
            require(scanner != nil, "paste ended outside a paste")
            checkVerdict(scanner!.result)
            scanner = nil
        case .character(let character):
            require(scanner == nil, "a key inside a paste")
            let scalars = character.unicodeScalars
            require(scalars.count == 1, "more than one scalar")
            require(!(0...0x1F).contains(scalars.first!.value), "C0 control as character")
            require(!(0x7F...0x9F).contains(scalars.first!.value), "DEL or C1 control as character")
        default:
            require(scanner == nil, "a key inside a paste")
        }
    }

    func checkVerdict(_ verdict: PasteResult) {
        switch verdict {
        case .characters(let characters):
            require(!characters.isEmpty && characters.count <= length, "characters count")
            require(characters.allSatisfy { charset.accept($0) == $0 }, "characters outside the charset")
        case .extracted(let characters):
            require(characters.count == length, "extracted count")
            require(characters.allSatisfy { charset.accept($0) == $0 }, "extracted outside the charset")
        case .rejected:
            break
        }
    }
}

extension KeyDecoder {
    /// `feed`, then what an Esc held back, as the loop decodes it when that Esc has not ended the prompt.
    mutating func feedGoingOnAfterEscapes(_ bytes: [UInt8]) -> [Key] {
        var keys = feed(bytes)
        while holdsBytesAfterEscape { keys += feed([]) }
        return keys
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let input = FuzzReads(UnsafeBufferPointer(start: start, count: count))
    let charset: CodeCharset = input.configuration & 1 == 0 ? .digits : .alnum
    let length = Int((input.configuration >> 1) & 0x0F) % 12 + 1

    // However the bytes are cut into reads, the keys are the same, but where a read ends with a lone Esc: the
    // stream cut there alone decodes as the reads do.
    var pieces = KeyDecoder()
    var pieceKeys: [Key] = []
    var cuts: [[UInt8]] = [[]]
    for read in input.reads {
        pieceKeys += pieces.feedGoingOnAfterEscapes(read.bytes)
        cuts[cuts.count - 1] += read.bytes
        if pieces.holdsLoneEscape { cuts.append([]) }
    }
    pieceKeys += pieces.flush()
    var whole = KeyDecoder()
    let wholeKeys = mergingPasteText(cuts.flatMap { whole.feedGoingOnAfterEscapes($0) } + whole.flush())
    require(mergingPasteText(pieceKeys) == wholeKeys, "chunking changed the keys")

    // As the program runs it: flush after the Esc delay, then check every key.
    var decoder = KeyDecoder()
    var checker = KeyStreamChecker(charset: charset, length: length)
    var session = SessionChecker(charset: charset, length: length, configuration: input.configuration)
    // Unmarked reads 1 ms apart are pieces of one paste (`UnmarkedPasteJoin`); a flush bit is a quiet line.
    var join = UnmarkedPasteJoin()
    var time = Duration.zero
    func deliver(_ keys: [Key]) {
        for key in keys {
            if case .unmarkedPaste = key {
                session.apply(key)
                continue
            }
            checker.check(key)
            session.apply(key)
        }
    }
    for read in input.reads {
        time += .milliseconds(1)
        let decoded = decoder.feedGoingOnAfterEscapes(read.bytes)
        let recognised = read.unmarked ? UnmarkedPaste.recognise(decoded, from: read.bytes) : decoded
        if recognised != decoded {
            require(
                recognised.count <= 2 && recognised.dropFirst().allSatisfy { $0 == .undecodable },
                "an unmarked paste is one key, and one report of what was not read")
            require(
                decoded.allSatisfy {
                    if case .character = $0 {
                        true
                    } else {
                        [.submit, .ignored, .tab, .terminalReport, .undecodable].contains($0)
                    }
                }, "keys that are not text became a paste")
        }
        deliver(read.unmarked ? join.take(recognised, from: read.bytes, at: time) : join.release() + recognised)
        if read.flushAfter {
            time += UnmarkedPasteJoin.window
            deliver(join.due(at: time))
            require(!join.isHolding, "a paste held past its quiet window")
        }
        if read.flushAfter, decoder.isAwaitingMoreBytes {
            for key in decoder.flush() {
                checker.check(key)
                session.apply(key)
            }
            require(!decoder.isAwaitingMoreBytes, "still awaiting after flush")
        }
        if read.endPasteAfter {
            let wasInsidePaste = decoder.isInsidePaste
            let keys = decoder.endPaste()
            // A paste whose bytes were not all UTF-8 ends with the report of them (`.undecodable`).
            let ending = keys.last == .undecodable ? keys.dropLast().last : keys.last
            require(wasInsidePaste == (ending == .pasteEnded), "endPaste outside a paste, or not ending it")
            for key in keys {
                checker.check(key)
                session.apply(key)
            }
            require(!decoder.isInsidePaste, "still inside a paste after endPaste")
        }
    }
    deliver(join.release())
    return 0
}
