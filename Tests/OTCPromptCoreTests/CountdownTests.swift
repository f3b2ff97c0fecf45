import Testing

@testable import OTCPromptCore

/// `--timeout`: time arrives as values, so these tests jump it forward.
@Suite struct CountdownTests {
    /// The marks that fit, and when the program must wake for each, then for the end.
    @Test(arguments: [
        (5, [Int](), [5]),
        (15, [10], [5, 15]),
        (30, [10], [20, 30]),
        (31, [30, 10], [1, 21, 31]),
        (45, [30, 10], [15, 35, 45]),
        (120, [30, 10], [90, 110, 120]),
    ])
    func marksThatFitAndDeadlines(total: Int, marks: [Int], wakes: [Int]) {
        var countdown = Countdown(total: .seconds(total))
        #expect(countdown.pendingMarks == marks.map { .seconds($0) })
        var now: Duration = .zero
        var woken: [Duration] = []
        var said: [Duration] = []
        while let deadline = countdown.nextDeadline(after: now) {
            #expect(deadline > now, "never a busy loop")
            now = deadline
            woken.append(now)
            if let mark = countdown.markDue(at: now) { said.append(mark) }
            #expect(woken.count <= 3)
            if woken.count > 3 { break }
        }
        #expect(woken == wakes.map { .seconds($0) })
        #expect(said == marks.map { .seconds($0) })
        #expect(countdown.hasRunOut(at: now))
    }

    @Test func eachMarkIsSaidOnceAndNothingBeforeItsTime() {
        var countdown = Countdown(total: .seconds(45))
        #expect(countdown.markDue(at: .milliseconds(14_999)) == nil)
        #expect(countdown.markDue(at: .seconds(15)) == .seconds(30))
        #expect(countdown.markDue(at: .milliseconds(15_500)) == nil)
        #expect(countdown.nextDeadline(after: .seconds(16)) == .seconds(35))
        #expect(countdown.markDue(at: .seconds(36)) == .seconds(10))
        #expect(countdown.markDue(at: .seconds(40)) == nil)
        #expect(countdown.nextDeadline(after: .seconds(40)) == .seconds(45))
        #expect(countdown.remaining(at: .seconds(40)) == .seconds(5))
        #expect(countdown.remaining(at: .seconds(50)) == .zero)
    }

    /// After a stop (Ctrl-Z) the program may wake with both marks past: only the true one is said.
    @Test func aLateWakeSaysOnlyTheLatestMark() {
        var countdown = Countdown(total: .seconds(120))
        #expect(countdown.markDue(at: .seconds(112)) == .seconds(10))
        #expect(countdown.pendingMarks.isEmpty)
        var ranOut = Countdown(total: .seconds(120))
        #expect(ranOut.markDue(at: .seconds(125)) == nil)
        #expect(ranOut.nextDeadline(after: .seconds(125)) == nil)
    }

    @Test(arguments: [
        (80_000, "1 minute 20 seconds left", "1 minuto e 20 segundos restantes"),
        (83_000, "about 1 minute 20 seconds left", "cerca de 1 minuto e 20 segundos restantes"),
        (86_000, "about 1 minute 30 seconds left", "cerca de 1 minuto e 30 segundos restantes"),
        (120_000, "2 minutes left", "2 minutos restantes"),
        (59_000, "59 seconds left", "59 segundos restantes"),
        (59_700, "about 1 minute left", "cerca de 1 minuto restante"),
        (27_400, "27 seconds left", "27 segundos restantes"),
        (30_000, "30 seconds left", "30 segundos restantes"),
        (10_000, "10 seconds left", "10 segundos restantes"),
        (9_300, "10 seconds left", "10 segundos restantes"),
        (1_000, "1 second left", "1 segundo restante"),
        (400, "1 second left", "1 segundo restante"),
    ])
    func timeLeftIsRoundedSensibly(milliseconds: Int, english: String, portuguese: String) {
        let spoken = SpokenDuration(remaining: .milliseconds(milliseconds))
        #expect(Wording(language: .en).timeLeft(spoken) == english)
        #expect(Wording(language: .ptBR).timeLeft(spoken) == portuguese)
    }

    /// The program's loop, played with a session: wake at each deadline, tick, nothing in between.
    @Test(arguments: [
        (5, [(5, Announcement(.timeout, "time is up"))]),
        (15, [(5, Announcement(.timeLeft, "10 seconds left")), (15, Announcement(.timeout, "time is up"))]),
        (
            45,
            [
                (15, Announcement(.timeLeft, "30 seconds left")), (35, Announcement(.timeLeft, "10 seconds left")),
                (45, Announcement(.timeout, "time is up")),
            ]
        ),
        (
            120,
            [
                (90, Announcement(.timeLeft, "30 seconds left")), (110, Announcement(.timeLeft, "10 seconds left")),
                (120, Announcement(.timeout, "time is up")),
            ]
        ),
    ])
    func theSessionAnnouncesAtTheMarksThenTimesOut(total: Int, expected: [(Int, Announcement)]) {
        var driver = SessionDriver(PromptConfiguration(timeLimit: .seconds(total)))
        var now: Duration = .zero
        var heard: [(Duration, Announcement)] = []
        while let deadline = driver.session.nextDeadline(after: now), heard.count < 5 {
            now = deadline
            driver.tick(at: now)
            heard += driver.lastAnnouncements.map { (now, $0) }
        }
        #expect(heard.map(\.0) == expected.map { .seconds($0.0) })
        #expect(heard.map(\.1) == expected.map(\.1))
        #expect(driver.lastEffects.last == .timeout)
        #expect(driver.last?.isFinal == true)
        #expect(driver.session.isFinished)
    }

    /// Waking often (every key) changes nothing: each mark once, at its time.
    @Test func frequentTicksSayEachMarkOnce() {
        var driver = SessionDriver(PromptConfiguration(language: .ptBR, timeLimit: .seconds(45)))
        for tenth in 0..<449 { driver.tick(at: .milliseconds(tenth * 100)) }
        #expect(
            driver.speech.spoken == [
                Announcement(.timeLeft, "30 segundos restantes"), Announcement(.timeLeft, "10 segundos restantes"),
            ])
        driver.tick(at: .seconds(45))
        #expect(driver.lastEffects == [.announce(Announcement(.timeout, "tempo esgotado")), .timeout])
        driver.tick(at: .seconds(46))
        driver.press(.character("1"))
        #expect(driver.lastEffects.isEmpty)
    }

    @Test(arguments: Language.allCases)
    func controlTSaysTheTimeLeft(language: Language) {
        var driver = SessionDriver(PromptConfiguration(language: language, timeLimit: .seconds(120)))
        driver.type("98")
        driver.tick(at: .milliseconds(37_200))
        driver.press(.timeLeft)
        let expected =
            Wording(language: language).timeLeft(SpokenDuration(minutes: 1, seconds: 20, isApproximate: true))
        #expect(driver.lastEffects == [.announce(Announcement(.timeLeft, expected))])
        #expect(driver.session.field.value == "98")
        var unlimited = SessionDriver(language: language)
        unlimited.press(.timeLeft)
        #expect(unlimited.last == Announcement(.timeLeft, language.said("noTimeLimit")))
    }

    @Test func controlTKeepsARejectionShown() {
        var driver = SessionDriver()
        driver.press(.character("x"))
        driver.press(.timeLeft)
        #expect(driver.snapshot.isError)
    }

    /// A usual limit (systemd's 90 s) is no news when the prompt opens; a short one is said right after the
    /// question, and so is what is left when the prompt comes back with a minute or less.
    @Test func thePromptSaysTheTimeLimitOnlyWhenItIsShort() {
        var driver = SessionDriver(PromptConfiguration(verbosity: .terse, timeLimit: .seconds(120)))
        driver.start()
        #expect(driver.last?.text == "Verification code. Type 6 digits.")
        driver.tick(at: .seconds(50))
        driver.start()
        #expect(
            driver.last?.text == "Verification code. Type 6 digits.", "after a stop: 1 minute 10 seconds is no news")
        driver.tick(at: .seconds(70))
        driver.start()
        #expect(driver.last?.text == "Verification code. Type 6 digits. 50 seconds left.")
        var short = SessionDriver(PromptConfiguration(verbosity: .terse, timeLimit: .seconds(60)))
        short.start()
        #expect(short.last?.text == "Verification code. Type 6 digits. 1 minute left.")
        var question = ConfirmSession(question: "Allow?", verbosity: .terse, timeLimit: .seconds(90))
        #expect(question.start().first?.announcement?.text == "Allow? Yes or no.")
        _ = question.tick(at: .seconds(45))
        #expect(question.start().first?.announcement?.text == "Allow? Yes or no. 45 seconds left.")
    }

    @Test func runningOutDuringACheckEndsThePrompt() {
        var driver = SessionDriver(PromptConfiguration(checksCode: true, timeLimit: .seconds(15)))
        driver.type("985391")
        driver.type("12")
        driver.tick(at: .seconds(5))
        #expect(driver.last == Announcement(.timeLeft, "10 seconds left"), "a mark is said during a check too")
        #expect(driver.session.isChecking)
        driver.tick(at: .seconds(15))
        #expect(driver.lastEffects == [.announce(Announcement(.timeout, "time is up")), .timeout])
        #expect(!driver.session.isChecking)
        #expect(driver.session.queuedKeys.isEmpty)
        driver.checkAccepted()
        #expect(driver.lastEffects.isEmpty)
        #expect(driver.submitted == nil)
        #expect(driver.session.nextDeadline(after: .seconds(15)) == nil)
    }

    @Test func noTimeLimitNoDeadline() {
        var driver = SessionDriver()
        #expect(driver.session.nextDeadline(after: .zero) == nil)
        driver.tick(at: .seconds(1000))
        #expect(driver.lastEffects.isEmpty)
    }
}

@Suite struct TimeLimitWordingTests {
    @Test func helpMentionsControlTOnlyUnderATimeLimit() {
        var limited = SessionDriver(PromptConfiguration(timeLimit: .seconds(60)))
        limited.type("?")
        #expect(limited.last?.text.hasSuffix("Control T tells the time left.") == true)
        var unlimited = SessionDriver()
        unlimited.type("?")
        #expect(unlimited.last?.text.contains("Control T") == false)
    }

    @Test(arguments: [Language.en, .ptBR])
    func theTimeLeftInThePromptStartsASentence(language: Language) throws {
        // 95 s is said as "about 1 minute 40 seconds left": a word, which must start in upper case.
        var driver = SessionDriver(PromptConfiguration(language: language, timeLimit: .seconds(95)))
        driver.start()
        let prompt = try #require(driver.last?.text)
        let sentences = prompt.split(separator: ". ")
        let last = try #require(sentences.last)
        #expect(last.first?.isLetter == true && last.first?.isUppercase == true, "\(prompt)")
    }

    @Test(arguments: [Language.en, .ptBR])
    func aSubmittedPasswordIsNotACode(language: Language) {
        var driver = SessionDriver(PromptConfiguration.freeText(language: language))
        driver.type("hunter2")
        driver.press(.submit)
        #expect(driver.submitted == "hunter2")
        #expect(driver.last?.text == language.said("submitted"))
    }
}
