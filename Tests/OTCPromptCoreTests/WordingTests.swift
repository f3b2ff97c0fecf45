import OTCPromptTestSupport
import Testing

@testable import OTCPromptCore

@Suite struct WordingTests {
    static let groupSizes: [Int: [Int]] = [
        1: [1], 2: [2], 3: [3], 4: [4], 5: [3, 2], 6: [3, 3], 7: [3, 4], 8: [4, 4], 9: [3, 3, 3], 10: [3, 3, 4],
        11: [3, 3, 3, 2], 12: [3, 3, 3, 3],
    ]

    @Test(arguments: 1...12)
    func groupSizesForEveryLength(length: Int) {
        #expect(CodeGrouping.groupSizes(length: length) == Self.groupSizes[length])
    }

    @Test(arguments: 1...12)
    func aFullCodeIsSpelledInItsGroups(length: Int) {
        let code = Array("985391274068".prefix(length))
        let groups = CodeGrouping.groups(code, length: length)
        #expect(groups.map(\.count) == Self.groupSizes[length])
        #expect(groups.joined().joined() == String(code))
        #expect(groups.allSatisfy { group in group.allSatisfy { $0.count == 1 } })
    }

    @Test func knownSpellings() {
        #expect(CodeGrouping.groups(Array("985391"), length: 6) == Utterance.groups(written: "9 8 5, 3 9 1"))
        #expect(CodeGrouping.groups(Array("98539127"), length: 8) == Utterance.groups(written: "9 8 5 3, 9 1 2 7"))
        #expect(CodeGrouping.groups(Array("9853912"), length: 7) == Utterance.groups(written: "9 8 5, 3 9 1 2"))
        #expect(CodeGrouping.groups(Array("1234"), length: 4) == Utterance.groups(written: "1 2 3 4"))
        #expect(CodeGrouping.groups(Array("g1a2b3"), length: 6) == Utterance.groups(written: "G 1 A, 2 B 3"))
    }

    /// A partial code breaks where the full code would.
    @Test func partialCodesAreGroupedByTheirPositionsInTheFullCode() {
        #expect(CodeGrouping.groups(Array("9853"), length: 6) == Utterance.groups(written: "9 8 5, 3"))
        #expect(CodeGrouping.groups(Array("985"), length: 6) == Utterance.groups(written: "9 8 5"))
        #expect(CodeGrouping.groups(Array("98539"), length: 8) == Utterance.groups(written: "9 8 5 3, 9"))
        #expect(CodeGrouping.groups(Array("5391"), length: 6, offset: 2) == Utterance.groups(written: "5, 3 9 1"))
        #expect(CodeGrouping.groups(Array("391"), length: 6, offset: 3) == Utterance.groups(written: "3 9 1"))
        #expect(CodeGrouping.groups([], length: 6) == [])
    }

    /// Whatever is said, two characters of a code are never written next to each other, so the
    /// speech engine can never read them as a number ("98" as "ninety-eight"). Counts (up to 9
    /// for these lengths) are single digits too, so no two digits are adjacent anywhere.
    @Test(arguments: Language.allCases, [CodeCharset.digits, .alnum])
    func noTwoCodeCharactersAreEverAdjacent(language: Language, charset: CodeCharset) throws {
        let adjacent = try Regex("[0-9A-Z][0-9A-Z]")
        var random = SeededRandom(seed: 11)
        for round in 0..<400 {
            let length = 1 + round % 9
            var driver = SessionDriver(
                PromptConfiguration(
                    length: length, charset: charset, autoSubmit: round % 2 == 0, language: language,
                    verbosity: Verbosity.allCases[round % 3]))
            driver.start()
            let code = PromptSessionMaskTests.randomCode(length: 12, charset: charset, using: &random)
            for step in 0..<20 {
                switch random.next() % 6 {
                case 0: driver.press(.backspace)
                case 1: driver.press(.readBack)
                case 2: driver.paste(String(code.prefix(Int(random.next() % UInt64(length)) + 1)))
                case 3: driver.press(.submit)
                default: driver.type(String(code[step % code.count]))
                }
            }
            for text in driver.speech.texts {
                #expect(text.firstMatch(of: adjacent) == nil, "\(text)")
            }
        }
    }

    /// For 10 to 12 characters the counts have two digits; the code part of a readback still has none.
    @Test(arguments: 10...12)
    func longCodesAreSpelledToo(length: Int) throws {
        var driver = SessionDriver(length: length, autoSubmit: false)
        driver.type(String("985391274068".prefix(length)))
        driver.press(.readBack)
        let text = try #require(driver.last?.text)
        let code = try #require(text.split(separator: ". ").first)
        #expect(code.firstMatch(of: try Regex("[0-9][0-9]")) == nil)
        #expect(text.hasSuffix(". All \(length)."))
    }

    /// The lead says how to fill the field in the field's own terms; the kind follows where the lead cannot say it.
    @Test func kindsOfField() {
        let en = Wording(language: .en)
        let pt = Wording(language: .ptBR)
        func lead(_ wording: Wording, _ length: Int, _ charset: CodeCharset, autoSubmit: Bool = true) -> String {
            let field = CodeField(length: length, charset: charset)
            return wording.fieldLead(label: "Code", field: field, style: .init(autoSubmit: autoSubmit)).text
        }
        func keys(_ wording: Wording, _ field: CodeField, mask: Bool = false) -> String {
            wording.fieldKeys(field: field, style: .init(mask: mask, verbosity: .terse)).text
        }
        #expect(lead(en, 6, .digits) == "Code. Type 6 digits.")
        #expect(lead(en, 1, .digits) == "Code. Type 1 digit.")
        #expect(lead(en, 8, .alnum) == "Code. Type 8 letters or digits.")
        #expect(lead(en, 6, .digits, autoSubmit: false) == "Code. Type 6 digits, then press Enter.")
        #expect(lead(en, 256, .any) == "Code. Type 256 characters.")
        #expect(lead(pt, 6, .digits) == "Code. Tecle 6 dígitos.")
        #expect(lead(pt, 1, .digits) == "Code. Tecle 1 dígito.")
        #expect(keys(en, CodeField(length: 6, charset: .digits)) == "", "the lead said it")
        #expect(keys(en, CodeField(length: 6, charset: .digits), mask: true) == "Hidden 6-digit code.")
        #expect(keys(en, CodeField(length: 256, charset: .any, kind: .freeText), mask: true) == "Secret text.")
        #expect(keys(pt, CodeField(length: 6, charset: .digits), mask: true) == "Código oculto de 6 dígitos.")
    }

    @Test func rejectedCharactersAreNamed() {
        let en = Wording(language: .en)
        let pt = Wording(language: .ptBR)
        let digits = CodeField(length: 6, charset: .digits)
        let alnum = CodeField(length: 6, charset: .alnum)
        let style = Wording.Style()
        #expect(en.notAllowed("x", field: digits, style: style) == "letter \(spelled: "X") not allowed, digits only")
        #expect(
            en.notAllowed("\u{FF58}", field: digits, style: style) == "letter \(spelled: "X") not allowed, digits only")
        #expect(en.notAllowed(" ", field: digits, style: style) == "space not allowed, digits only")
        #expect(en.notAllowed("é", field: digits, style: style) == "character \(spelled: "é") not allowed, digits only")
        #expect(en.notAllowed("-", field: alnum, style: style) == "dash not allowed, letters and digits only")
        #expect(
            pt.notAllowed("x", field: digits, style: style) == "letra \(spelled: "X") não permitida, apenas dígitos")
        #expect(pt.notAllowed(",", field: digits, style: style) == "vírgula não permitida, apenas dígitos")
        #expect(pt.notAllowed("-", field: digits, style: style) == "hífen não permitido, apenas dígitos")
        #expect(
            pt.notAllowed("é", field: alnum, style: style)
                == "caractere \(spelled: "é") não permitido, apenas letras e dígitos")
        #expect(
            pt.notAllowed("x", field: digits, style: .init(mask: true))
                == "caractere não permitido, apenas dígitos")
    }

    @Test func portugueseAgreesInNumber() {
        let pt = Wording(language: .ptBR)
        var field = CodeField(length: 6, charset: .digits)
        field.append("1")
        #expect(pt.incomplete(field: field, style: .init()) == "1 de 6 digitado, faltam 5")
        field.append(contentsOf: "2345")
        #expect(pt.incomplete(field: field, style: .init()) == "5 de 6 digitados, falta 1")
        #expect(pt.readBack(field: field, style: .init(mask: true)) == "5 de 6 digitados")
    }

    /// Terse drops hints, never information: each terse text is the start of the normal one.
    @Test(arguments: Language.allCases)
    func terseOnlyDropsTheEnd(language: Language) {
        let wording = Wording(language: language)
        var field = CodeField(length: 6, charset: .digits)
        for autoSubmit in [true, false] {
            let terse = Wording.Style(autoSubmit: autoSubmit, verbosity: .terse)
            let normal = Wording.Style(autoSubmit: autoSubmit, verbosity: .normal)
            func opening(_ style: Wording.Style) -> String {
                (wording.fieldLead(label: "L", field: field, style: style) + " "
                    + wording.fieldKeys(field: field, style: style)).text
            }
            #expect(opening(normal).hasPrefix(opening(terse)))
            #expect(wording.help(field: field, style: normal).hasSuffix(wording.help(field: field, style: terse)))
            field.append(contentsOf: "985391")
            #expect(
                wording.typed("1", field: field, style: normal).text.hasPrefix(
                    wording.typed("1", field: field, style: terse).text))
            #expect(wording.full(style: normal).hasPrefix(wording.full(style: terse)))
            field.clear()
        }
    }

    @Test func defaultLabels() {
        #expect(Wording(language: .en).defaultLabel == "Verification code")
        #expect(Wording(language: .ptBR).defaultLabel == "Código de verificação")
        #expect(PromptConfiguration(language: .ptBR).label == "Código de verificação")
    }
}
