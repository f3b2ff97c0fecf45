/// A secret's UTF-8 bytes in one buffer, from the field to the caller, never a `String` on the way.
///
/// A `String` of up to 15 bytes lives inline in registers and stack slots, a longer one in a heap
/// buffer, and both are copied freely by every call that passes one; neither is ever wiped. This
/// buffer is allocated once, with room for the field's longest secret, and wiped (`wipe()`) by its
/// last user as soon as the secret is out; the program locks it (`withStorage`, `mlock` where
/// `RLIMIT_MEMLOCK` allows) with the field's other storage. Copies of the reference share it.
///
/// Pure: the allocation is Swift's; locking is the caller's, through `withStorage`. `@unchecked Sendable`: one
/// owner at a time uses it (the field, then the loop's outcome, then the one writer), never two threads at once.
public final class SecretBytes: @unchecked Sendable {
    private var storage: UnsafeMutableRawBufferPointer
    /// How many bytes the secret has.
    public private(set) var count: Int = 0

    /// An empty secret with room for `capacity` bytes.
    public init(capacity: Int) {
        storage = .allocate(byteCount: max(16, capacity), alignment: 16)
        storage.initializeMemory(as: UInt8.self, repeating: 0)
    }

    /// A secret copied from `text`: an answer that is not typed into a field (a fingerprint) or a
    /// code a check gives back. The `String` it comes from is not reached.
    public convenience init(copying text: some StringProtocol) {
        self.init(capacity: text.utf8.count)
        for byte in text.utf8 { append(byte) }
    }

    deinit {
        wipe()
        storage.deallocate()
    }

    public var isEmpty: Bool { count == 0 }

    /// Appends the UTF-8 bytes of `character`.
    public func append(_ character: Character) {
        for byte in character.utf8 { append(byte) }
    }

    /// Removes the last `byteCount` bytes, wiping them.
    public func removeLast(_ byteCount: Int) {
        let removed = min(byteCount, count)
        count -= removed
        Self.overwrite(UnsafeMutableRawBufferPointer(rebasing: storage[count..<(count + removed)]))
    }

    /// Overwrites every byte with zero and empties the secret. The stores are made by a function the
    /// optimiser neither inlines nor optimises, so they are never dropped as dead (what
    /// `memset_explicit` promises in C).
    public func wipe() {
        Self.overwrite(storage)
        count = 0
    }

    /// The secret's bytes, valid only inside `body`.
    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(rebasing: storage[..<count]))
    }

    /// The whole buffer, for `mlock`.
    public func withStorage<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        body(UnsafeRawBufferPointer(storage))
    }

    /// Whether both hold the same bytes, in a time that depends on their capacity but not on where
    /// they differ: a SETREPEAT comparison says nothing of how much of the first try was right.
    public func matches(_ other: SecretBytes) -> Bool {
        var difference = UInt8(truncatingIfNeeded: count ^ other.count) | (count == other.count ? 0 : 1)
        let length = max(storage.count, other.storage.count)
        for index in 0..<length {
            let mine = index < count ? storage[index] : 0
            let theirs = index < other.count ? other.storage[index] : 0
            difference |= mine ^ theirs
        }
        return difference == 0
    }

    /// A copy in a buffer of its own (the field's copy-on-write).
    func copy() -> SecretBytes {
        let copy = SecretBytes(capacity: storage.count)
        withUnsafeBytes { bytes in for byte in bytes { copy.append(byte) } }
        return copy
    }

    func append(_ byte: UInt8) {
        if count == storage.count { grow() }
        storage[count] = byte
        count += 1
    }

    /// Twice the room, the old buffer wiped. Only a free-text field of characters averaging more
    /// than four UTF-8 bytes gets here; the new buffer is not locked (docs/security.md).
    private func grow() {
        let larger = UnsafeMutableRawBufferPointer.allocate(byteCount: storage.count * 2, alignment: 16)
        larger.initializeMemory(as: UInt8.self, repeating: 0)
        larger.copyMemory(from: UnsafeRawBufferPointer(storage))
        Self.overwrite(storage)
        storage.deallocate()
        storage = larger
    }

    @inline(never)
    @_optimize(none)
    private static func overwrite(_ bytes: UnsafeMutableRawBufferPointer) {
        for index in bytes.indices { bytes[index] = 0 }
    }
}

extension SecretBytes: Equatable {
    /// `matches(_:)`: constant time.
    public static func == (lhs: SecretBytes, rhs: SecretBytes) -> Bool { lhs.matches(rhs) }
}

extension SecretBytes: ExpressibleByStringLiteral {
    /// A fixed answer ("yes") or a test's expected secret.
    public convenience init(stringLiteral value: String) { self.init(copying: value) }
}

extension SecretBytes: CustomStringConvertible {
    /// Never the secret: an interpolated or printed secret says only its size.
    public var description: String { "SecretBytes(\(count) bytes)" }
}

extension SecretBytes {
    /// The most bytes `write(as:into:)` writes: the secret, in any of the terminal's encodings, and a
    /// line feed.
    public var encodedCapacity: Int { count + 1 }

    /// Writes the secret in `encoding` (a Latin-1 terminal's secret goes out as the bytes it was
    /// typed as; a character it cannot write becomes "?", as `TerminalEncoding.encode` does), then
    /// "\n" unless `endingLine` is false (cryptsetup takes every byte as the key), into `output`, which
    /// has room for `encodedCapacity` bytes; returns how many it wrote. Nothing passes through a `String`
    /// but one scalar at a time.
    public func write(
        as encoding: TerminalEncoding, into output: UnsafeMutableBufferPointer<UInt8>, endingLine: Bool = true
    ) -> Int {
        var written = 0
        withUnsafeBytes { bytes in
            guard encoding != .utf8 else {
                UnsafeMutableRawBufferPointer(output).copyMemory(from: bytes)
                written = bytes.count
                return
            }
            var iterator = bytes.makeIterator()
            var decoder = UTF8()
            while case .scalarValue(let scalar) = decoder.decode(&iterator) {
                output[written] = encoding.encode(String(scalar)).first ?? UInt8(ascii: "?")
                written += 1
            }
        }
        guard endingLine else { return written }
        output[written] = 0x0A
        return written + 1
    }
}
