import Testing

@testable import OTCPromptBraille
@testable import OTCPromptCore

/// BrlAPI's key codes as brltty 6.5 sends them to a client in tty mode (its Virtual driver's keys, as recorded).
@Suite struct BrailleKeyCodeTests {
    private let control: UInt64 = 0x04 << 32
    private let meta: UInt64 = 0x08 << 32

    @Test(arguments: [
        (UInt64(0x61), BrailleInput.key(.character("a"))),
        (0x31, .key(.character("1"))),
        (0xE9, .key(.character("é"))),
        (0x0100_20AC, .key(.character("€"))),
        (0xFF08, .key(.backspace)),
        (0xFF0D, .key(.submit)),
        (0xFF1B, .key(.escape)),
        (0x2000_0017, .pan(.left)),
        (0x2000_0018, .pan(.right)),
        (0x2000_001B, .pan(.lineStart)),
        (0x2000_001C, .pan(.lineEnd)),
        (0x2000_001F, .pan(.focus)),
    ])
    func typedCharactersAndTheDisplaysOwnKeys(code: UInt64, input: BrailleInput) {
        #expect(BrailleKeyCode.decode(code) == input)
    }

    @Test func ctrlWithALetterIsTheTerminalsControlKeyAndAltIsIgnored() {
        #expect(BrailleKeyCode.decode(control | 0x72) == .key(.readBack))
        #expect(BrailleKeyCode.decode(control | 0x75) == .key(.clearField))
        #expect(BrailleKeyCode.decode(control | 0x63) == .key(.interrupt))
        #expect(BrailleKeyCode.decode(control | 0x31) == .key(.ignored))
        #expect(BrailleKeyCode.decode(meta | 0x61) == .key(.ignored))
    }

    @Test func routingKeysArrowsAndControlCharactersAreNotThePrompts() {
        #expect(BrailleKeyCode.decode(0x2001_0003) == nil)  // ROUTE 3
        #expect(BrailleKeyCode.decode(0xFF51) == nil)  // Left arrow
        #expect(BrailleKeyCode.decode(0x1B) == nil)
        #expect(BrailleKeyCode.decode(0x85) == nil)
    }

    @Test func theAcceptedRangesHoldEveryKeyDecodedAndNoRoutingKey() {
        func accepted(_ code: UInt64) -> Bool {
            BrailleKeyCode.acceptedRanges.contains { range in
                let value = code & 0xFFFF_FFFF
                let flags = code >> 32
                let first = range.first >> 32
                let last = range.last >> 32
                return (range.first & 0xFFFF_FFFF...range.last & 0xFFFF_FFFF).contains(value)
                    && flags & ~(first | last) == 0 && flags & (first & last) == first & last
            }
        }
        for code: UInt64 in [0x61, 0xE9, 0x0100_20AC, 0xFF08, 0xFF0D, 0xFF1B, control | 0x72, 0x2000_0017, 0x2000_001F]
        {
            #expect(accepted(code) && BrailleKeyCode.decode(code) != nil, "\(String(code, radix: 16))")
        }
        for code: UInt64 in [0x2001_0003, 0xFF51, 0x2000_0001] {
            #expect(!accepted(code), "\(String(code, radix: 16))")
        }
    }
}
