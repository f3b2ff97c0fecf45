import OTCPromptCore
import OTCPromptFrontEnds
import Testing

/// `--doctor` says its summary with an offer, and the rest only on Enter: keys act at once, never waiting behind the
/// whole report, and nothing printed is drawn a second time.
@Suite struct DoctorFrontEndTests {
    static let report = [
        "Speech: espeak, because no speech server answers.", "Where you are: at this machine.",
        "Audio device: espeak-ng can play on it.", "Config file: none.",
    ]

    func notice(_ language: Language = .en) throws -> NoticeSession {
        guard
            case .notice(let notice) = DoctorFrontEnd.request(
                report: Self.report, language: language, verbosity: .normal
            ).ask
        else { throw Failure("not a notice") }
        return notice
    }

    struct Failure: Error {
        var why: String
        init(_ why: String) { self.why = why }
    }

    static func said(_ effects: [PromptEffect]) -> [String] {
        effects.compactMap { if case .announce(let announcement) = $0 { announcement.text } else { nil } }
    }

    @Test(arguments: Language.allCases)
    func theSummaryAndTheOfferOnlyThenTheRestOnEnterThenEnterEnds(language: Language) throws {
        var notice = try notice(language)
        let offer = Wording(language: language).doctorOffer
        #expect(Self.said(notice.start()) == ["Speech: espeak, because no speech server answers. " + offer])
        #expect(notice.shownLines.isEmpty, "the report is on the screen already")
        let rest = Self.said(notice.handle(.submit))
        #expect(rest.count == 1 && rest[0].hasPrefix("Where you are: at this machine. Audio device"), "\(rest)")
        #expect(!notice.isFinished)
        #expect(notice.handle(.submit).last == .confirmed(true))
    }

    @Test func escapeEndsAtOnceAndAnyOtherKeyRepeatsTheOffer() throws {
        var notice = try notice()
        _ = notice.start()
        #expect(Self.said(notice.handle(.character("x"))) == [Wording(language: .en).doctorOffer])
        #expect(notice.handle(.escape) == [.announce(Announcement(.cancel, "closed")), .cancel])
    }
}
