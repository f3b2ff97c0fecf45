/// The one field the code is typed into: characters are only ever added at the end or removed
/// from the end, like the seeds' hidden text field that always types at its end.
///
/// The storage is reserved for `length` characters up front and overwritten before anything is
/// removed, so the code does not linger in freed or spare array memory (see `wipe()` for what
/// Swift cannot promise).
public struct CodeField: Equatable, Sendable {
    /// What became of one typed character.
    public enum AppendOutcome: Equatable, Sendable {
        /// Stored, in its stored form (full-width folded, letters upper-cased for `alnum`).
        case accepted(Character)
        /// The charset does not allow it; the field is unchanged.
        case notAllowed(Character)
        /// The field already holds `length` characters; the field is unchanged.
        case full
    }

    /// The number of characters a code has; the most free text holds.
    public let length: Int
    public let charset: CodeCharset
    public let kind: FieldKind
    public private(set) var characters: [Character] = []
    /// The same characters as one UTF-8 buffer: what is submitted (`takeSecret()`), never a `String`.
    private var bytes: SecretBytes

    public init(length: Int, charset: CodeCharset, kind: FieldKind = .code) {
        self.length = max(1, length)
        self.charset = charset
        self.kind = kind
        characters.reserveCapacity(self.length)
        // Four bytes a character hold any one scalar; only longer clusters make it grow.
        bytes = SecretBytes(capacity: self.length * 4)
    }

    /// The memory reserved for the characters, for `mlock`: its capacity is reserved up front, so
    /// the storage does not move while the field is edited. (A character of more than 15 UTF-8
    /// bytes, possible only in free text, lives elsewhere on the heap.)
    public func withReservedStorage<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        characters.withUnsafeBufferPointer { elements in
            let bytes = characters.capacity * MemoryLayout<Character>.stride
            return body(
                UnsafeRawBufferPointer(start: elements.baseAddress, count: elements.baseAddress == nil ? 0 : bytes))
        }
    }

    /// The secret's buffer, for `mlock` like the characters' storage.
    public func withSecretStorage<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        bytes.withStorage(body)
    }

    /// The content as the buffer that leaves the field: the field keeps an empty one of its own, so
    /// wiping the field afterwards does not wipe the submitted secret, whose user wipes it.
    public mutating func takeSecret() -> SecretBytes {
        let secret = bytes
        bytes = SecretBytes(capacity: length * 4)
        return secret
    }

    public var value: String { String(characters) }
    public var count: Int { characters.count }
    public var isEmpty: Bool { characters.isEmpty }
    /// No more characters fit.
    public var isFull: Bool { characters.count >= length }
    /// The field holds something that can be submitted: all `length` characters of a code, or
    /// at least one character of a free-text secret.
    public var isComplete: Bool { kind == .code ? isFull : !isEmpty }
    /// How many more characters fit.
    public var remaining: Int { length - characters.count }

    /// Appends `character` if the charset allows it and there is room. A character that is not
    /// allowed is reported as such even when the field is full: that is what was wrong with the key.
    @discardableResult
    public mutating func append(_ character: Character) -> AppendOutcome {
        guard let stored = charset.accept(character) else { return .notAllowed(character) }
        guard !isFull else { return .full }
        characters.append(stored)
        uniqueBytes().append(stored)
        return .accepted(stored)
    }

    /// Appends a Tab to free text, which no charset allows by itself (it is a control character): a secret typed
    /// with one keeps it. False when the field is full or holds a code.
    public mutating func appendTab() -> Bool {
        guard kind == .freeText, !isFull else { return false }
        characters.append("\t")
        uniqueBytes().append("\t")
        return true
    }

    /// Appends the allowed characters of `newCharacters` in order until the field is full;
    /// returns those accepted, in their stored form. Characters that are not allowed are skipped.
    @discardableResult
    public mutating func append(contentsOf newCharacters: some Sequence<Character>) -> [Character] {
        var accepted: [Character] = []
        for character in newCharacters {
            if isFull { break }
            if case .accepted(let stored) = append(character) { accepted.append(stored) }
        }
        return accepted
    }

    /// Removes the last character and returns it; nil when the field is empty.
    @discardableResult
    public mutating func deleteLast() -> Character? {
        guard let last = characters.last else { return nil }
        characters[characters.count - 1] = Self.blank
        characters.removeLast()
        uniqueBytes().removeLast(last.utf8.count)
        return last
    }

    /// Empties the field; returns how many characters it held.
    @discardableResult
    public mutating func clear() -> Int {
        let removed = characters.count
        wipe()
        return removed
    }

    /// Replaces the whole content with `newCharacters` (a code found in a paste). Characters
    /// that are not allowed are skipped and at most `length` are kept; returns those stored.
    @discardableResult
    public mutating func replace(with newCharacters: some Sequence<Character>) -> [Character] {
        wipe()
        return append(contentsOf: newCharacters)
    }

    /// Overwrites every stored character, then empties the field, keeping the (now blank) storage.
    ///
    /// What Swift does not let this promise: copies already made of the value (`value`, a
    /// `FieldSnapshot`, a copy-on-write duplicate of the array or of the buffer) are not
    /// reached; a character too long for Swift's inline small-string form (over 15 UTF-8 bytes,
    /// only possible with the `any` charset) lives in a heap buffer that is released, not zeroed;
    /// and the optimiser, registers and the terminal's own buffers are out of reach.
    public mutating func wipe() {
        characters.withUnsafeMutableBufferPointer { storage in
            for index in storage.indices { storage[index] = Self.blank }
        }
        characters.removeAll(keepingCapacity: true)
        if isKnownUniquelyReferenced(&bytes) { bytes.wipe() } else { bytes = SecretBytes(capacity: length * 4) }
    }

    /// The buffer, copied first if another field value shares it (copy-on-write, as the array does).
    private mutating func uniqueBytes() -> SecretBytes {
        if !isKnownUniquelyReferenced(&bytes) { bytes = bytes.copy() }
        return bytes
    }

    /// What a removed character's slot is overwritten with.
    private static let blank: Character = "\u{0}"
}
