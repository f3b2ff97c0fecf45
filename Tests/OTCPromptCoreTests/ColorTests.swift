import Testing

@testable import OTCPromptCore

@Suite struct ColorTests {
    @Test func parsesHexInBothLengthsAndAnyCase() {
        #expect(Color.parse("#3B82F6") == Color(red: 0x3B, green: 0x82, blue: 0xF6))
        #expect(Color.parse("#a855f7") == Color(red: 0xA8, green: 0x55, blue: 0xF7))
        #expect(Color.parse(" #F80 ") == Color(red: 0xFF, green: 0x88, blue: 0x00))
    }

    @Test func parsesTheNamedColoursCaseInsensitively() {
        #expect(Color.parse("red") == Color(red: 255, green: 0, blue: 0))
        #expect(Color.parse("Purple") == Color(red: 128, green: 0, blue: 128))
        #expect(Color.parse("grey") == Color.parse("GRAY"))
        #expect(Color.parse("orange")?.hex == "#FFA500")
        for name in [
            "red", "green", "blue", "cyan", "magenta", "yellow", "orange", "purple", "pink", "white", "grey", "gray",
            "black",
        ] {
            #expect(Color.parse(name) != nil, "\(name)")
        }
    }

    @Test(arguments: ["", "#", "#12345", "#1234567", "#GGGGGG", "123456", "rouge", "#+1+2+3", "#１２３"])
    func rejectsAnythingElse(text: String) {
        #expect(Color.parse(text) == nil)
    }

    @Test func hexIsUpperCaseAndZeroPadded() {
        #expect(Color(red: 1, green: 0xAB, blue: 0).hex == "#01AB00")
    }

    @Test func gradientRunsEvenlyFromStartToEnd() {
        let red = Color(red: 255, green: 0, blue: 0)
        let blue = Color(red: 0, green: 0, blue: 255)
        let steps = Color.gradient(from: red, to: blue, count: 6)
        #expect(steps.map(\.red) == [255, 204, 153, 102, 51, 0])
        #expect(steps.map(\.blue) == [0, 51, 102, 153, 204, 255])
        #expect(Color.gradient(from: red, to: blue, count: 3)[1] == Color(red: 128, green: 0, blue: 128))
        #expect(Color.gradient(from: red, to: blue, count: 1) == [red])
        #expect(Color.gradient(from: red, to: blue, count: 0).isEmpty)
    }

    @Test func nearestXterm256Indices() {
        #expect(Color(red: 255, green: 0, blue: 0).xterm256Index == 196)
        #expect(Color(red: 0, green: 0, blue: 255).xterm256Index == 21)
        #expect(Color(red: 0, green: 0, blue: 0).xterm256Index == 16)
        #expect(Color(red: 255, green: 255, blue: 255).xterm256Index == 231)
        // Exactly a cube colour.
        #expect(Color(red: 0x5F, green: 0x87, blue: 0xAF).xterm256Index == 67)
        // Greys land on the 24-step ramp (232 + k: 8 + 10k) when it is nearer than the cube.
        #expect(Color(red: 128, green: 128, blue: 128).xterm256Index == 244)
        #expect(Color(red: 118, green: 118, blue: 118).xterm256Index == 243)
        #expect(Color(red: 8, green: 8, blue: 8).xterm256Index == 232)
        #expect(Color(red: 238, green: 238, blue: 238).xterm256Index == 255)
    }

    @Test func nearestBasicColours() {
        #expect(Color(red: 255, green: 0, blue: 0).ansi16Index == 9)
        #expect(Color(red: 200, green: 10, blue: 0).ansi16Index == 1)
        #expect(Color(red: 0x3B, green: 0x82, blue: 0xF6).ansi16Index == 12)
        #expect(Color(red: 128, green: 128, blue: 128).ansi16Index == 8)
    }

    @Test func foregroundParametersPerDepth() {
        let orange = Color(red: 0xFF, green: 0xA5, blue: 0x00)
        #expect(orange.foregroundParameters(.trueColor) == "38;2;255;165;0")
        #expect(orange.foregroundParameters(.ansi256) == "38;5;214")
        #expect(orange.foregroundParameters(.ansi16) == "33")
        #expect(Color(red: 200, green: 10, blue: 0).foregroundParameters(.ansi16) == "31")
        #expect(orange.foregroundParameters(.none) == nil)
    }
}
