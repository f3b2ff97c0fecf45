import OTCPromptCore
import OTCPromptTestSupport
import Testing

@testable import OTCPromptSpeechDispatcher

@Suite struct SSIPTests {
    @Test func aCommandEndsInCRLFAndALineBreakInAValueCannotStartASecondCommand() {
        #expect(
            SSIP.command("SET self CLIENT_NAME", "ana:otc-prompt:main")
                == Array("SET self CLIENT_NAME ana:otc-prompt:main\r\n".utf8))
        #expect(
            SSIP.command("SET self SYNTHESIS_VOICE", "x\r\nQUIT") == Array("SET self SYNTHESIS_VOICE x QUIT\r\n".utf8))
    }

    @Test func dataLinesStartingWithADotAreDoubledAndTheBlockEndsWithALoneDot() {
        let bytes = SSIP.data(".hidden\nnormal\n..two\n.")
        #expect(String(decoding: bytes, as: UTF8.self) == "..hidden\r\nnormal\r\n...two\r\n..\r\n.\r\n")
        #expect(String(decoding: SSIP.data("9"), as: UTF8.self) == "9\r\n.\r\n")
    }

    @Test func anAnnouncementBecomesTheSameSSMLTheEspeakBackendSpeaksWithoutControlCharacters() {
        #expect(SSIP.text(of: Announcement(.digit, "\(spelled: "9")")) == "<speak>9</speak>")
        let announcement = Announcement(.readback, "\(spelled: "G 1 A, 2 B C"). All 6.")
        let readback = SSIP.text(of: announcement)
        #expect(
            readback == SpokenText.ssml(announcement.utterance)
                && readback.contains("<say-as interpret-as=\"characters\">g1a</say-as>"))
        let typed = SSIP.text(of: Announcement(.digit, Utterance.characters([["a\u{1B}[2J\n"]])))
        #expect(typed == "<speak>a\\x1B[2J </speak>", "each segment is scrubbed")
        #expect(!SSIP.text(of: Announcement(.prompt, "Code\u{1B}[2J\r\n.")).contains("\u{1B}"))
        #expect(SSIP.text(of: Announcement(.prompt, "a < b & c")) == "<speak>a &lt; b &amp; c</speak>")
    }

    @Test(arguments: [(80, -100), (125, -50), (170, 0), (175, 2), (300, 47), (449, 100), (450, 100), (60, -100)])
    func wordsPerMinuteMapToSSIPRateAsTheEspeakNGModuleMapsThemBack(wordsPerMinute: Int, rate: Int) {
        #expect(SSIP.rate(wordsPerMinute: wordsPerMinute) == rate)
    }

    @Test func repliesAreCutFromBytesSplitAnywhereWithContinuationLines() throws {
        var reader = SSIPReplyReader()
        reader.feed(Array("225-1".utf8))
        #expect(try reader.next() == nil)
        reader.feed(Array("2\r\n225 OK MESSAGE QUEUED\r\n703-12\r\n703-4\r\n703 CANCELED\r\n21".utf8))
        #expect(try reader.next() == SSIPReply(code: 225, lines: ["12", "OK MESSAGE QUEUED"]))
        let event = try #require(try reader.next())
        #expect(event.isEvent && event.code == 703 && event.lines == ["12", "4", "CANCELED"])
        #expect(try reader.next() == nil)
        reader.feed(Array("3 OK CANCELED\n".utf8))
        #expect(try reader.next() == SSIPReply(code: 213, lines: ["OK CANCELED"]))
    }

    @Test func aLineThatIsNotSSIPIsAProtocolError() {
        var reader = SSIPReplyReader()
        reader.feed(Array("HTTP/1.1 400 Bad Request\r\n".utf8))
        #expect(throws: SSIPProtocolError.self) { try reader.next() }
    }

    @Test func aRefusalIsNotASuccess() {
        #expect(!SSIPReply(code: 409, lines: ["ERR RATE TOO HIGH"]).isSuccess)
        #expect(SSIPReply(code: 230, lines: ["OK RECEIVING DATA"]).isSuccess)
    }
}

@Suite struct SpeechDispatcherAddressTests {
    @Test func speechdAddressWinsAndItsPathIsTheSecondField() {
        let environment = ["SPEECHD_ADDRESS": "unix_socket:/tmp/s.sock", "XDG_RUNTIME_DIR": "/run/user/1000"]
        #expect(
            SpeechDispatcherAddress.resolve(environment: environment, homeDirectory: "/home/a")
                == .unixSocket(path: "/tmp/s.sock"))
        #expect(
            SpeechDispatcherAddress.resolve(environment: ["SPEECHD_ADDRESS": "unix_socket:/a:b"], homeDirectory: "/h")
                == .unixSocket(path: "/a"))
    }

    @Test func unixSocketWithoutAPathOrAnEmptyAddressMeansTheDefaultPath() {
        for value in ["unix_socket", ""] {
            let environment = ["SPEECHD_ADDRESS": value, "XDG_RUNTIME_DIR": "/run/user/1000"]
            #expect(
                SpeechDispatcherAddress.resolve(environment: environment, homeDirectory: "/h")
                    == .unixSocket(path: "/run/user/1000/speech-dispatcher/speechd.sock"))
        }
    }

    @Test func inetSocketAndUnknownMethodsAreUnsupported() {
        #expect(
            SpeechDispatcherAddress.resolve(
                environment: ["SPEECHD_ADDRESS": "inet_socket:127.0.0.1:6560"], homeDirectory: "/h")
                == .unsupported(method: "inet_socket"))
        #expect(
            SpeechDispatcherAddress.resolve(environment: ["SPEECHD_ADDRESS": "dbus"], homeDirectory: "/h")
                == .unsupported(method: "dbus"))
    }

    @Test func withoutARuntimeDirectoryTheCacheDirectoryIsUsedAsGlibDoes() {
        #expect(
            SpeechDispatcherAddress.resolve(environment: ["XDG_RUNTIME_DIR": ""], homeDirectory: "/home/a")
                == .unixSocket(path: "/home/a/.cache/speech-dispatcher/speechd.sock"))
        #expect(
            SpeechDispatcherAddress.resolve(environment: ["XDG_CACHE_HOME": "/c"], homeDirectory: "/home/a")
                == .unixSocket(path: "/c/speech-dispatcher/speechd.sock"))
    }

    @Test func theOpeningSendsOnlyTheSettingsGiven() {
        let inherit = SpeechDispatcherOptions().openingCommands(user: "ana").map { String(decoding: $0, as: UTF8.self) }
        #expect(inherit.first == "SET self CLIENT_NAME ana:otc-prompt:main\r\n")
        #expect(inherit.contains("SET self PRIORITY important\r\n"))
        #expect(!inherit.contains { $0.contains("RATE") || $0.contains("LANGUAGE") || $0.contains("VOICE") })
        let given = SpeechDispatcherOptions(language: .ptBR, voice: "Joana", rate: 300).openingCommands(user: "ana")
            .map { String(decoding: $0, as: UTF8.self) }
        #expect(
            given.suffix(3) == [
                "SET self LANGUAGE pt-BR\r\n", "SET self SYNTHESIS_VOICE Joana\r\n", "SET self RATE 47\r\n",
            ])
    }
}
