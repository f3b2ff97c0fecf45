import Testing

@testable import OTCPromptBraille
@testable import OTCPromptCore

/// What a session presents to an output, followed from its effects as the loop carries them out.
@Suite struct SessionViewTrackerTests {
    /// A session and a tracker that notes every effect of it.
    private struct Presented {
        var session: PromptSession
        var tracker: SessionViewTracker

        init(_ configuration: PromptConfiguration, linesAbove: [String] = []) {
            session = PromptSession(configuration: configuration)
            tracker = SessionViewTracker(linesAbove: linesAbove)
            note(session.start())
        }

        mutating func note(_ effects: [PromptEffect]) {
            for effect in effects { tracker.note(effect) }
        }

        mutating func press(_ keys: Key...) {
            for key in keys { note(session.handle(key)) }
        }

        mutating func type(_ text: String) {
            for character in text { press(.character(character)) }
        }

        var view: SessionView { tracker.view(of: session.snapshot) }
    }

    private func code(mask: Bool = false, checks: Bool = false) -> PromptConfiguration {
        PromptConfiguration(label: "Verification code", length: 6, mask: mask, checksCode: checks)
    }

    @Test func aCodeIsItsLabelItsCharactersAndTheCursorAfterThem() {
        var presented = Presented(code())
        #expect(presented.view == SessionView(label: "Verification code: ", field: .characters([]), cursor: 0))
        presented.type("98")
        #expect(presented.view == SessionView(label: "Verification code: ", field: .characters(["9", "8"]), cursor: 2))
    }

    @Test(arguments: [true, false])
    func aMaskedFieldIsOnlyItsCountWhateverIsSaidOrAsked(checks: Bool) {
        var presented = Presented(code(mask: true, checks: checks))
        presented.type("9851")
        presented.press(.readBack)
        let view = presented.view
        #expect(view.field == .masked(count: 4) && view.cursor == 4)
        #expect(view.readBack == .words("4 of 6 entered"))
    }

    @Test func nothingOfAMaskedSecretIsInAnyViewRenderedAnyWay() {
        var presented = Presented(.freeText(label: "Password", mask: true))
        var shown = ""
        func look() {
            var cells = ""
            cells.unicodeScalars.append(contentsOf: BrailleLine(presented.view).cells)
            shown += presented.view.label + cells + (presented.view.news ?? "")
            if case .words(let words)? = presented.view.readBack { shown += words }
            #expect(presented.view.readBack.map { if case .groups = $0 { false } else { true } } ?? true)
        }
        for character in "ZQXJKV" {
            presented.type(String(character))
            look()
        }
        presented.press(.readBack)
        look()
        presented.press(.submit)
        look()
        #expect(!"ZQXJKV".contains { shown.contains($0) }, "\(shown)")
    }

    @Test func ctrlRShowsTheCodeInTheGroupsItIsSaidInUntilTheNextKey() {
        var presented = Presented(code())
        presented.type("98539")
        presented.press(.readBack)
        #expect(presented.view.readBack == .groups([["9", "8", "5"], ["3", "9"]]))
        presented.press(.backspace)
        #expect(presented.view.readBack == nil && presented.view.field == .characters(["9", "8", "5", "3"]))
    }

    @Test func theNewsStaysUntilAKeyChangesTheField() {
        var presented = Presented(code(checks: true))
        presented.type("123456")
        presented.note(presented.session.checkRejected(firstErrorLine: nil))
        #expect(presented.view.news == "Code rejected. 2 attempts left. Type a new code.")
        // The rejected code is still shown beside it.
        #expect(presented.view.field == .characters(Array("123456")))
        presented.type("7")
        #expect(presented.view.news == nil && presented.view.field == .characters(["7"]))
    }

    @Test func theOpeningShowsTheCallersLinesAboveTheFieldAsNews() {
        var configuration = code()
        configuration.news = ["Request withdrawn."]
        configuration.details = ["For disk sda2."]
        var presented = Presented(configuration, linesAbove: ["Request withdrawn.", "For disk sda2."])
        #expect(presented.view.news == "Request withdrawn. For disk sda2.")
        presented.type("1")
        #expect(presented.view.news == nil)
        // Ctrl-R on an empty field says the whole question again: the lines come back.
        presented.press(.backspace, .readBack)
        #expect(presented.view.news == "Request withdrawn. For disk sda2.")
    }

    @Test func aNoticeHasNoFieldAndItsLabelIsTheMessage() {
        var notice = NoticeSession(message: "Waiting for password requests.", details: ["Request withdrawn."])
        var tracker = SessionViewTracker(linesAbove: notice.shownLines)
        for effect in notice.start() { tracker.note(effect) }
        let view = tracker.view(of: notice.snapshot)
        #expect(view.field == nil && view.cursor == nil && view.label == "Waiting for password requests.")
        #expect(view.news == "Request withdrawn.")
    }

    @Test func aLabelCannotCarryEscapeSequencesToAnOutput() {
        let presented = Presented(PromptConfiguration(label: "Code\u{1B}[2J", length: 6))
        #expect(!presented.view.label.contains("\u{1B}"))
    }

    @Test func aViewIsHandedOnOnlyWhenItChangedOrTheOutputsWereGivenBack() {
        var presented = Presented(code())
        #expect(presented.tracker.change(of: presented.session.snapshot) != nil)
        #expect(presented.tracker.change(of: presented.session.snapshot) == nil)
        presented.tracker.forgetPresented()
        #expect(presented.tracker.change(of: presented.session.snapshot) != nil)
    }
}
