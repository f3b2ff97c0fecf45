/// The one field the code is typed into: characters are only ever added at the end or removed
/// from the end, like the seeds' hidden text field that always types at its end.
///
/// STUB: replaced by the full field.
public struct CodeField: Equatable, Sendable {
    public let length: Int
    public let charset: CodeCharset
    public private(set) var characters: [Character] = []

    public init(length: Int, charset: CodeCharset) {
        self.length = length
        self.charset = charset
    }

    public var value: String { String(characters) }

    public mutating func append(_ character: Character) -> Bool {
        guard characters.count < length, let accepted = charset.accept(character) else { return false }
        characters.append(accepted)
        return true
    }
}
