import OTCPromptCore
import Testing

private func scan(_ text: String, _ charset: CodeCharset = .digits, length: Int = 6) -> PasteResult {
    PasteScanner.scan(text, charset: charset, length: length)
}

private func chars(_ text: String) -> [Character] { Array(text) }

@Suite("PasteScanner: the paste is the code")
struct PasteScannerCharactersTests {
    @Test(
        "normalised pastes that are all allowed characters",
        arguments: [
            ("123456", "123456"), ("123 456", "123456"), ("123-456", "123456"), ("123.456", "123456"),
            (" 123456\n", "123456"), ("12\t34\r\n56", "123456"), ("1 2 3 4 5 6", "123456"),
            ("１２３４５６", "123456"), ("123\u{00A0}456", "123456"), ("123\u{2007}456", "123456"),
            ("123\u{202F}456", "123456"), ("123\u{3000}456", "123456"), ("123\u{2010}456", "123456"),
            ("123\u{2013}456", "123456"), ("123\u{2015}456", "123456"), ("123\u{2212}456", "123456"),
            ("123\u{FF0D}456", "123456"), ("123\u{00B7}456", "123456"), ("123\u{30FB}456", "123456"),
            ("123\u{FF0E}456", "123456"), ("123", "123"), ("9", "9"),
        ])
    func digits(paste: String, expected: String) {
        #expect(scan(paste) == .characters(chars(expected)))
    }

    @Test("8 digits into a 6-digit field: the first 6")
    func tooManyDigits() {
        #expect(scan("12345678") == .characters(chars("123456")))
        #expect(scan("1234 5678") == .characters(chars("123456")))
    }

    @Test("alnum is case-insensitive, folds full width and returns upper case")
    func alnum() {
        #expect(scan("ab12cd", .alnum) == .characters(chars("AB12CD")))
        #expect(scan("ａｂ１２ｃｄ", .alnum) == .characters(chars("AB12CD")))
        #expect(scan("AB1-2CD", .alnum) == .characters(chars("AB12CD")))
    }
}

@Suite("PasteScanner: a message holding the code")
struct PasteScannerExtractionTests {
    @Test(
        "one code in a message (en, pt) is extracted",
        arguments: [
            "Your code is 123456", "Your verification code is 123456. Do not share it.",
            "G-123456 is your Google verification code.", "G-123456", "Your code is 123 456",
            "Your code is 123-456.", "Seu código é 123456", "Seu código de verificação é 123.456. Não o compartilhe.",
            "123456 é o seu código. Ele expira em 10 minutos.", "Code: 123456 (valid for 5 minutes)",
            "Your Example code is 123456.\n\n@example.com #123456", "認証コード：１２３４５６",
            "Use 123456 to sign in\nIf this wasn't you, call us", "[Bank] OTP 123456, expires 15:30",
        ])
    func extracted(message: String) {
        #expect(scan(message) == .extracted(chars("123456")))
    }

    @Test("alnum: the code with a digit wins over word pairs such as CODE IS")
    func alnumInSentence() {
        #expect(scan("Your code is AB12CD", .alnum) == .extracted(chars("AB12CD")))
        #expect(scan("Your code is ab12cd.", .alnum) == .extracted(chars("AB12CD")))
        #expect(scan("Seu código é AB12CD.", .alnum) == .extracted(chars("AB12CD")))
        #expect(scan("Your code is 123 456", .alnum) == .extracted(chars("123456")))
        #expect(scan("G-123456", .alnum) == .extracted(chars("123456")))
    }

    @Test("lengths other than 6")
    func otherLengths() {
        #expect(scan("Your code is 1234 5678", length: 8) == .extracted(chars("12345678")))
        #expect(scan("PIN: 4821.", length: 4) == .extracted(chars("4821")))
        #expect(scan("Your code is 123456", length: 4) == .rejected)
    }

    @Test(
        "two different codes, no code or only words of the right size are rejected",
        arguments: [
            "Use 123456 or 654321", "Your code is 12345", "Your code is 1234567", "Your code is 12 34 56 78",
            "Seu código é 123456 e o anterior era 654321", "hello", "", "   ", "\n\t", "-- . --",
            "Code 123 456 789", "\u{1B}[A", "Your code is 12 3456 78",
        ])
    func rejected(paste: String) {
        #expect(scan(paste) == .rejected)
    }

    @Test("alnum: several letter-only candidates and no digit candidate are rejected")
    func alnumAmbiguous() {
        #expect(scan("Thanks a lot, dear friend!", .alnum) == .rejected)  // THANKS, FRIEND
        #expect(scan("Hello there, my friend!", .alnum) == .extracted(chars("FRIEND")))  // the one 6-letter run
        #expect(scan("Codes AB12CD and EF34GH.", .alnum) == .rejected)
    }

    @Test("a double separator breaks a chain; a single one joins")
    func separators() {
        #expect(scan("Code: 123  456") == .rejected)
        #expect(scan("Code: 123 - 456") == .rejected)
        #expect(scan("Code: 12-34-56") == .extracted(chars("123456")))
        #expect(scan("Code:\n123\n456") == .rejected)
    }
}

@Suite("PasteScanner: streaming")
struct PasteScannerStreamingTests {
    @Test("the verdict does not depend on how the paste is cut into pieces")
    func pieces() {
        let messages = ["Your code is 123 456. Do not share it.", "１２３４５６", "Use 123456 or 654321", "G-123456"]
        for message in messages {
            let whole = scan(message)
            let scalars = Array(message.unicodeScalars)
            for cut in 0...scalars.count {
                var scanner = PasteScanner(charset: .digits, length: 6)
                scanner.scan(String(String.UnicodeScalarView(scalars[..<cut])))
                scanner.scan(String(String.UnicodeScalarView(scalars[cut...])))
                #expect(scanner.result == whole, "\(message) cut at \(cut)")
            }
        }
    }

    @Test("allowed-only pastes longer than the field: a candidate decides, none takes the first characters")
    func longAllowedPastes() {
        #expect(scan("ABCDEF GHIJKL", .alnum) == .rejected)
        #expect(scan("ABCDEFGH", .alnum) == .characters(chars("ABCDEF")))
        #expect(scan("123456 123456") == .extracted(chars("123456")))
        #expect(scan("123456 654321") == .rejected)
    }

    @Test("a 4 MB paste of prose with one code keeps a bounded window")
    func largePaste() {
        var scanner = PasteScanner(charset: .digits, length: 6)
        let filler = String(repeating: "lorem ipsum 12 dolor sit amet 1234567 ", count: 1000)
        scanner.scan("Your code is 482913. ")
        for _ in 0..<110 {
            scanner.scan(filler)
            #expect(scanner.retainedCharacterCount <= 30)
        }
        #expect(scanner.result == .extracted(chars("482913")))
    }

    @Test("result can be read mid-way without changing what follows")
    func resultIsPure() {
        var scanner = PasteScanner(charset: .digits, length: 6)
        scanner.scan("Code 123")
        #expect(scanner.result == .rejected)
        scanner.scan(" 456")
        #expect(scanner.result == .extracted(chars("123456")))
    }
}

@Suite("PasteScanner: agrees with CodeCharset")
struct PasteScannerCharsetAgreementTests {
    @Test(
        "a one-character paste is accepted exactly when the charset accepts it (every BMP scalar)",
        arguments: [CodeCharset.digits, .alnum])
    func everyScalar(charset: CodeCharset) {
        for value in UInt32(0)...0xFFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let character = Character(scalar)
            let expected = charset.accept(character).map { PasteResult.characters([$0]) } ?? .rejected
            let verdict = PasteScanner.scan(String(character), charset: charset, length: 6)
            if verdict != expected { Issue.record("U+\(String(value, radix: 16)): \(verdict), expected \(expected)") }
        }
    }
}
