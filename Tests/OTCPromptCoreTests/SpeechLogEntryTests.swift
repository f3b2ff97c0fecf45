import Foundation
import Testing

@testable import OTCPromptCore

@Suite struct SpeechLogEntryTests {
    @Test func theExactLine() {
        #expect(
            SpeechLogEntry(event: .digit, text: "9", milliseconds: 12).jsonLine
                == #"{"event": "digit", "text": "9", "ms": 12}"#)
        #expect(
            SpeechLogEntry(Announcement(.checkFailed, "wrong code"), milliseconds: 0).jsonLine
                == #"{"event": "check-failed", "text": "wrong code", "ms": 0}"#)
        #expect(
            SpeechLogEntry(event: .readback, text: "9 8 5, 3 9 1. 6 of 6", milliseconds: 1234).jsonLine
                == #"{"event": "readback", "text": "9 8 5, 3 9 1. 6 of 6", "ms": 1234}"#)
    }

    @Test func escaping() {
        #expect(SpeechLogEntry.jsonString(#"say "hi" \ bye"#) == #""say \"hi\" \\ bye""#)
        #expect(
            SpeechLogEntry.jsonString("a\nb\tc\r\u{0}\u{1B}\u{1F}") == #""a\u000Ab\u0009c\u000D\u0000\u001B\u001F""#)
        #expect(SpeechLogEntry.jsonString("\u{7F}\u{2028}\u{2029}\u{FEFF}") == #""\u007F\u2028\u2029\uFEFF""#)
        #expect(SpeechLogEntry.jsonString("Código ✓ 👍🏽") == "\"Código ✓ 👍🏽\"")
        #expect(SpeechLogEntry.jsonString("/") == "\"/\"")
    }

    static let hostile: [String] = [
        "", "\"", "\\", "\\\"", "\"\\\"", "}\n{\"event\": \"complete\"", "\r\n", "\u{0}", "\u{8}\u{C}",
        "tab\there", "\u{7F}", "\u{2028}line\u{2029}", "e\u{301}", "👩‍👩‍👧", "\u{FEFF}bom", "\\u0041",
        String((0..<128).map { Character(Unicode.Scalar(UInt8($0))) }),
    ]

    /// Each line parses as one JSON object holding exactly what was given, and stays one line.
    @Test(arguments: hostile)
    func hostileTextRoundTrips(text: String) throws {
        let line = SpeechLogEntry(event: .reject, text: text, milliseconds: 42).jsonLine
        #expect(!line.contains("\n") && !line.contains("\r"))
        #expect(!line.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{2028}" })
        #expect(line.hasPrefix(#"{"event": "reject", "text": "#) && line.hasSuffix(#", "ms": 42}"#))
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object.count == 3)
        #expect(object["event"] as? String == "reject")
        #expect((object["text"] as? String).map { Array($0.unicodeScalars) } == Array(text.unicodeScalars))
        #expect(object["ms"] as? Int == 42)
    }

    @Test func everyEventNameIsItsRawValue() throws {
        for event in Announcement.Event.allCases {
            let line = SpeechLogEntry(event: event, text: "x", milliseconds: 1).jsonLine
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["event"] as? String == event.rawValue)
        }
    }

    @Test func theOutcomeLinesNameTheAnnouncementAndWhatCutItAndNothingSaid() {
        var entry = SpeechLogEntry(event: .prompt, text: "Verification code.", milliseconds: 3)
        entry.number = 1
        #expect(entry.jsonLine == #"{"event": "prompt", "text": "Verification code.", "ms": 3, "n": 1}"#)
        #expect(
            SpeechLogOutcome(of: 1, began: 40, cutBy: "digit", milliseconds: 350).jsonLine
                == #"{"event": "cut", "of": 1, "by": "digit", "began": 40, "ms": 350}"#)
        #expect(
            SpeechLogOutcome(of: 2, began: 600, cutBy: nil, milliseconds: 800).jsonLine
                == #"{"event": "heard", "of": 2, "began": 600, "ms": 800}"#)
        #expect(
            SpeechLogOutcome(of: 3, began: nil, cutBy: "cancel", milliseconds: 900).jsonLine
                == #"{"event": "cut", "of": 3, "by": "cancel", "ms": 900}"#)
        // The outcome events are none of the announcements', so a reader tells the two kinds of line apart.
        for event in SpeechLogOutcome.events { #expect(Announcement.Event(rawValue: event) == nil) }
    }
}
