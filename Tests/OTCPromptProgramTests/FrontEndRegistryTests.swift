import OTCPromptCore
import OTCPromptSettings
import Testing

@testable import OTCPromptProgram

/// The front ends as `FrontEnds.all` lists them: each one's priority, its options and its needs, read from the list
/// itself, so that a front end added to it is checked with the rest.
@Suite struct FrontEndRegistryTests {
    private static func name(_ frontEnd: any FrontEndRun.Type) -> String { String(describing: frontEnd) }

    private static func names(_ frontEnds: [any FrontEndRun.Type]) -> Set<String> { Set(frontEnds.map(name)) }

    @Test func eachFrontEndIsListedOnceWithAPriorityOfItsOwn() {
        #expect(Self.names(FrontEnds.all).count == FrontEnds.all.count)
        #expect(Set(FrontEnds.all.map { $0.priority }).count == FrontEnds.all.count)
        let byPriority = FrontEnds.all.sorted { $0.priority < $1.priority }.map(Self.name)
        #expect(byPriority.first == "DoctorFrontEndRun")
        #expect(byPriority.last == "PromptFrontEndRun")
    }

    /// Each option a front end says names its job, given alone, chooses that front end: so its `recognise` and its
    /// priority agree with what the askpass detection lets through as a job (`FrontEnds.namesAJob`).
    @Test(arguments: FrontEnds.all.flatMap { type in type.jobOptions.map { (String(describing: type), $0.name) } })
    func eachJobOptionAloneChoosesItsFrontEnd(frontEnd: String, option: String) throws {
        let setting = try #require(Settings.all.first { $0.name == option })
        let argument = setting.isFlag ? "--" + option : "--\(option)=\(setting.choices?.first ?? "x")"
        #expect(FrontEnds.namesAJob(argument))
        let chosen = try FrontEndChoiceTests.chosen([argument])
        #expect(chosen.hasPrefix(frontEnd + "("), "\(argument): \(chosen)")
    }

    /// The arguments a person's shell may pass alone that are not a label, whatever an exported askpass variable says.
    @Test func theJobsAreTheFrontEndsOptionsWithHelpAndVersion() {
        for job in [
            "--doctor", "--version", "--help", "-h", "--pinentry", "--agent", "--stdin", "--cryptsetup",
            "--boot-cue=first",
        ] {
            #expect(FrontEnds.namesAJob(job), "\(job)")
        }
        for label in ["--mask", "--askpass", "--boot-cue", "--query", "--doctorx", "Bank PIN", "-n"] {
            #expect(!FrontEnds.namesAJob(label), "\(label)")
        }
    }

    /// What each front end of today needs, the specification of its run: a front end added later says its own
    /// needs in its own tests, and only the rules below hold for every one.
    static let specified: [String: FrontEndNeeds] = [
        "PromptFrontEndRun": .askedAtTheTerminal,
        "CryptsetupFrontEndRun": .askedAtTheTerminal,
        "AskpassFrontEndRun": askedOrPosted,
        "TouchFrontEndRun": askedOrPosted,
        // It keeps what its previous image handed over, and loads espeak-ng only once its route is chosen.
        "AgentFrontEndRun": FrontEndNeeds(
            opensTerminal: true, postsWithoutTerminal: false, warmsUpBeforeTheRoute: false, keepsRenewal: true,
            notices: .withTheOpening),
        "PinentryFrontEndRun": nothingOfTheTerminal(.standardErrorAndFirstDialog),
        "StdinFrontEndRun": nothingOfTheTerminal(.standardError),
        "DoctorFrontEndRun": nothingOfTheTerminal(.nowhere),
        "BootCueFrontEndRun": nothingOfTheTerminal(.nowhere),
    ]

    /// Asked at the terminal, or posted for a password agent when there is none: an askpass call's.
    static let askedOrPosted = FrontEndNeeds(
        opensTerminal: true, postsWithoutTerminal: true, warmsUpBeforeTheRoute: true, keepsRenewal: false,
        notices: .withTheOpening)

    static func nothingOfTheTerminal(_ notices: NoticePlace) -> FrontEndNeeds {
        FrontEndNeeds(
            opensTerminal: false, postsWithoutTerminal: false, warmsUpBeforeTheRoute: false, keepsRenewal: false,
            notices: notices)
    }

    @Test func eachFrontEndOfTodayNeedsWhatItsSpecificationSays() {
        #expect(Set(Self.specified.keys).isSubset(of: Self.names(FrontEnds.all)))
        for frontEnd in FrontEnds.all {
            guard let needs = Self.specified[Self.name(frontEnd)] else { continue }
            #expect(frontEnd.needs == needs, "\(Self.name(frontEnd))")
        }
    }

    /// What only makes sense at the terminal a front end opens: posting when there is none, loading the voice
    /// before the route is known, keeping the terminal a previous image handed over.
    @Test(arguments: FrontEnds.all.map { String(describing: $0) })
    func whatANeedImpliesEveryFrontEndSaysToo(frontEnd: String) throws {
        let needs = try #require(FrontEnds.all.first { Self.name($0) == frontEnd }).needs
        if needs.postsWithoutTerminal || needs.warmsUpBeforeTheRoute || needs.keepsRenewal {
            #expect(needs.opensTerminal)
        }
    }

    @Test func aKeyscriptsOwnInputProblemsAreItsNoticesAlone() {
        let environment = ["CRYPTTAB_TRIED": "x", "CRYPTTAB_SOURCE": "/dev/sda2"]
        #expect(!CryptsetupFrontEndRun().problems(environment: environment).isEmpty)
        #expect(PromptFrontEndRun().problems(environment: environment).isEmpty)
    }
}
