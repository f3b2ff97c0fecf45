@testable import OTCPromptCore

/// A field snapshot with short defaults, so each test states only what it is about.
func snapshot(
    _ characters: String, length: Int = 6, label: String = "Code", mask: Bool = false, error: Bool = false
) -> FieldSnapshot {
    FieldSnapshot(label: label, characters: Array(characters), length: length, mask: mask, isError: error)
}

let bs = "\u{8}"
let esc = "\u{1B}"

func backspaces(_ count: Int) -> String { String(repeating: bs, count: count) }
