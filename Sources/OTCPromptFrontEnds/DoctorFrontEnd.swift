import OTCPromptCore

/// `--doctor`'s voice: the report is printed whole, and said as its summary (the first line: how announcements
/// reach the user, and why) with an offer; Enter says the rest, Escape ends. Nothing holds the keys while it speaks.
public enum DoctorFrontEnd {
    /// The notice that says `lines` (the report's, summary first).
    public static func request(report lines: [String], language: Language, verbosity: Verbosity) -> Request {
        let wording = Wording(language: language)
        var notice = NoticeSession(
            message: lines.first ?? "", details: Array(lines.dropFirst()), takesEnter: true, language: language,
            verbosity: verbosity)
        notice.detailsTold = .onEnter
        notice.closing = (wording.doctorOffer, wording.noticeClosed)
        return .notice(notice)
    }
}
