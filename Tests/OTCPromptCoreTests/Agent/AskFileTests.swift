import Testing

@testable import OTCPromptCore

/// systemd's ask file, as its queriers write it and as otc-prompt's callers write it with `rendered()`.
@Suite struct AskFileTests {
    /// What systemd-ask-password 252 wrote on this machine for `--id=cryptsetup:/dev/sda2 --timeout=2`.
    static let systemd252 = """
        [Ask]
        PID=25916
        Socket=/run/systemd/ask-password/sck.51a76772500f311a
        AcceptCached=0
        Echo=0
        NotAfter=10062624740
        Silent=0
        Message=Passphrase for "backup"
        Id=cryptsetup:/dev/sda2

        """

    @Test func systemdsOwnFileIsReadKeyByKey() throws {
        let file = try AskFile.parse(Array(Self.systemd252.utf8))
        #expect(
            file
                == AskFile(
                    pid: 25916, socket: "/run/systemd/ask-password/sck.51a76772500f311a", notAfter: 10_062_624_740,
                    message: "Passphrase for \"backup\"", id: "cryptsetup:/dev/sda2"))
    }

    @Test func aRenderedFileReadsBackAsTheSameRequest() throws {
        let file = AskFile(
            pid: 7, socket: "/run/user/1000/otc-prompt/ask/sck.1", echo: true, notAfter: 99,
            message: "Line one\nback\\slash\t\u{1B}[2J", id: "otc-prompt:sudo", kind: .question, okLabel: "Delete",
            notOKLabel: "Keep", cancelLabel: "Stop")
        let text = file.rendered()
        #expect(text.split(separator: "\n").count == 13, "one line a key: the message's line break escaped")
        #expect(try AskFile.parse(Array(text.utf8)) == file)
    }

    @Test func aPasswordIsTheDefaultKindAndIsNotWritten() throws {
        let file = AskFile(pid: 1, socket: "/tmp/sck")
        #expect(!file.rendered().contains("X-OTC-Kind"))
        #expect(try AskFile.parse(Array(file.rendered().utf8)).kind == .password)
    }

    @Test func unknownKeysOtherSectionsCommentsAndCarriageReturnsAreIgnored() throws {
        let text =
            "# note\r\n[Other]\r\nSocket=/elsewhere\r\n[Ask]\r\n ; comment\r\nSocket = /run/a/sck.1 \r\nColour=red\r\n"
        let file = try AskFile.parse(Array(text.utf8))
        #expect(file.socket == "/run/a/sck.1")
        #expect(file.pid == nil && file.notAfter == nil && file.message == nil)
    }

    @Test func theLastOfARepeatedKeyWinsAsInSystemd() throws {
        let file = try AskFile.parse(Array("[Ask]\nSocket=/a/s\nMessage=one\nMessage=two\n".utf8))
        #expect(file.message == "two")
    }

    @Test(
        arguments: [
            ("Socket=/a/s\n", AskFileError.noAskSection),
            ("[Ask]\nPID=1\n", .missingSocket),
            ("[Ask]\nSocket=\n", .missingSocket),
            ("[Ask]\nSocket=relative/sck\n", .invalidSocket),
            ("[Ask]\nSocket=/run/a/../../etc/sck\n", .invalidSocket),
            ("[Ask]\nSocket=/run//sck\n", .invalidSocket),
            ("[Ask]\nSocket=/run/sck\r\r\n", .invalidSocket),
            ("[Ask]\nSocket=/run/s\u{1B}[2Jck\n", .invalidSocket),
            ("[Ask]\nSocket=/a/s\nX-OTC-Kind=shell\n", .invalidValue(key: "X-OTC-Kind")),
        ] as [(String, AskFileError)])
    func aMalformedFileIsRefusedWithItsReason(text: String, reason: AskFileError) {
        #expect(throws: reason) { try AskFile.parse(Array(text.utf8)) }
    }

    @Test(
        arguments: [
            ("PID=many", "PID=many is not a number in range; no process is watched"),
            ("PID=-3", "PID=-3 is not a number in range; no process is watched"),
            ("PID=99999999999", "PID=99999999999 is not a number in range; no process is watched"),
            ("NotAfter=soon", "NotAfter=soon is not a number in range; no time limit"),
            ("NotAfter=-1", "NotAfter=-1 is not a number in range; no time limit"),
            ("NotAfter=18446744073709551616", "NotAfter=18446744073709551616 is not a number in range; no time limit"),
        ])
    func aNumberOutOfRangeTakesTheKeysDefaultAndALine(line: String, problem: String) throws {
        let file = try AskFile.parse(Array("[Ask]\nSocket=/a/s\n\(line)\nMessage=Passphrase\n".utf8))
        #expect(file.pid == nil && file.notAfter == nil)
        #expect(file.problems == [problem])
        #expect(file.message == "Passphrase", "still asked")
    }

    @Test func aValueOutOfRangeIsShownShortAndScrubbed() throws {
        let file = try AskFile.parse(
            Array("[Ask]\nSocket=/a/s\nPID=\u{1B}[2J\(String(repeating: "9", count: 60))\n".utf8))
        let line = try #require(file.problems.first)
        #expect(!line.contains("\u{1B}") && line.contains("…") && line.count < 100)
    }

    @Test func aLimitFurtherOffThanADayIsNone() {
        let farthest = UInt64(Countdown.farthest.components.seconds) * 1_000_000
        #expect(AskFile(pid: 1, socket: "/a/s", notAfter: .max).timeLeft(atMicroseconds: 5) == nil)
        #expect(AskFile(pid: 1, socket: "/a/s", notAfter: 5 + farthest + 1).timeLeft(atMicroseconds: 5) == nil)
        #expect(
            AskFile(pid: 1, socket: "/a/s", notAfter: 5 + farthest).timeLeft(atMicroseconds: 5) == Countdown.farthest)
    }

    @Test func aFileOverSixtyFourKibibytesIsRefusedUnread() {
        let huge = Array("[Ask]\nSocket=/a/s\nMessage=".utf8) + [UInt8](repeating: 0x41, count: AskFile.maximumSize)
        #expect(throws: AskFileError.tooLarge) { try AskFile.parse(huge) }
    }

    @Test func bytesThatAreNotUTF8NorANULCrashNothing() throws {
        let bytes: [UInt8] = Array("[Ask]\nSocket=/a/s\nMessage=".utf8) + [0xFF, 0x00, 0xC3, 0x0A]
        let file = try AskFile.parse(bytes)
        #expect(file.message?.unicodeScalars.contains("\u{FFFD}") == true)
    }

    @Test func zeroPIDAndZeroNotAfterMeanNone() throws {
        let file = try AskFile.parse(Array("[Ask]\nSocket=/a/s\nPID=0\nNotAfter=0\n".utf8))
        #expect(file.pid == nil && file.notAfter == nil)
        #expect(!file.hasExpired(atMicroseconds: .max))
        #expect(file.timeLeft(atMicroseconds: 5) == nil)
    }

    @Test func theTimeLeftCountsDownToZeroAndThenTheRequestHasExpired() {
        let file = AskFile(pid: 1, socket: "/a/s", notAfter: 5_000_000)
        #expect(file.timeLeft(atMicroseconds: 2_000_000) == .seconds(3))
        #expect(!file.hasExpired(atMicroseconds: 4_999_999))
        #expect(file.hasExpired(atMicroseconds: 5_000_000))
        #expect(file.timeLeft(atMicroseconds: 9_000_000) == .zero)
    }

    @Test(arguments: [
        ("a\\\\b", "a\\b"), ("line\\nnext", "line\nnext"), ("trailing\\", "trailing\\"), ("\\q", "\\q"),
        ("\\x41\\x4", "A\\x4"), ("\\x00", "\\x00"), ("plain", "plain"),
    ])
    func cEscapesAreUndoneAndWhatIsNoEscapeIsKept(written: String, read: String) {
        #expect(AskFile.unescaped(written) == read)
    }

    /// What systemd-ask-password 252 wrote on this machine for
    /// `systemd-ask-password --no-tty --id=cryptsetup:/dev/sda2 $'First line.\nSecond line.\nPassphrase:'`: the
    /// message's line breaks raw, so its later lines have no `=`.
    static let systemd252Lines = """
        [Ask]
        PID=30843
        Socket=/run/systemd/ask-password/sck.fb537a59db77b71e
        AcceptCached=0
        Echo=0
        NotAfter=1453609312
        Silent=0
        Message=First line.
        Second line.
        Passphrase:
        Id=cryptsetup:/dev/sda2

        """

    @Test func aMessageSystemd252WroteOnSeveralLinesIsReadWhole() throws {
        let file = try AskFile.parse(Array(Self.systemd252Lines.utf8))
        #expect(file.message == "First line.\nSecond line.\nPassphrase:")
        #expect(file.id == "cryptsetup:/dev/sda2")
        #expect(!file.leftSomethingOut)
    }

    @Test func aMessageLineWithAnEqualsSignThatNamesNoKeyStaysInTheMessage() throws {
        let text = "[Ask]\nSocket=/a/s\nMessage=Unlock\nuse key = the blue one\n2+2=4\nId=x:y\n"
        let file = try AskFile.parse(Array(text.utf8))
        #expect(file.message == "Unlock\nuse key = the blue one\n2+2=4")
    }

    @Test func aMessageKeepsItsBoundsAndSaysWhenSomethingWasLeftOut() throws {
        let lines = (1...(AskFile.messageLineLimit + 5)).map { "line \($0)" }
        let file = try AskFile.parse(Array("[Ask]\nSocket=/a/s\nMessage=\(lines.joined(separator: "\n"))\n".utf8))
        #expect(file.message?.split(separator: "\n").count == AskFile.messageLineLimit)
        #expect(file.leftSomethingOut)
        let long = String(repeating: "A", count: AskFile.messageCharacterLimit + 10)
        let longFile = try AskFile.parse(Array("[Ask]\nSocket=/a/s\nMessage=\(long)\n".utf8))
        #expect(longFile.message?.count == AskFile.messageCharacterLimit && longFile.leftSomethingOut)
    }

    @Test func aLineThatContinuesNothingIsLeftOutAndSaidSo() throws {
        let file = try AskFile.parse(Array("[Ask]\nSocket=/a/s\nstray words\nMessage=Hi\n".utf8))
        #expect(file.message == "Hi" && file.leftSomethingOut)
    }

    @Test func thePostersMarkReadsBackAndAMalformedOneIsNone() throws {
        let poster = AskFile.Poster(namespace: 4_026_531_836, pid: 4242, start: 98765)
        let file = AskFile(pid: 4242, socket: "/run/user/0/otc-prompt/ask/sck.1", poster: poster)
        #expect(file.rendered().contains("X-OTC-Poster=4026531836:4242:98765\n"))
        #expect(try AskFile.parse(Array(file.rendered().utf8)).poster == poster)
        let forged = try AskFile.parse(Array("[Ask]\nSocket=/a/s\nX-OTC-Poster=1:x:2\n".utf8))
        #expect(forged.poster == nil)
    }
}
