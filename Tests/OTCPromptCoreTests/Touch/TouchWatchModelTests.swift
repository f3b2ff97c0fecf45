import Testing

@testable import OTCPromptCore

@Suite struct TouchWatchModelTests {
    /// A model driven with times in milliseconds, its effects collected.
    struct Driver {
        var model: TouchWatchModel
        var effects: [TouchWatchModel.Effect] = []

        init(saysRelease: Bool = false) { model = TouchWatchModel(saysRelease: saysRelease) }

        mutating func give(_ event: TouchWatchModel.Event, at milliseconds: Int) {
            effects += model.update(event, at: .milliseconds(milliseconds))
        }

        mutating func detector(_ text: String, at milliseconds: Int) {
            give(.detectorBytes(Array(text.utf8)), at: milliseconds)
        }

        var cues: Int { effects.filter { $0 == .cue }.count }
    }

    @Test func pamU2FsPendingFileOpenedIsOneCueAtOnceAndItsCloseSaysNothing() {
        var driver = Driver()
        driver.give(.pendingFileOpened, at: 10)
        #expect(driver.effects == [.cue])
        driver.give(.pendingFileClosed, at: 3000)
        driver.give(.clock(.seconds(10)), at: 10_000)
        #expect(driver.effects == [.cue])
    }

    @Test func theDetectorsU2FAndGPGWaitsAreEachCuedAndItsReleaseIsSilentUnlessAsked() {
        var driver = Driver()
        driver.detector("U2F_1", at: 0)
        driver.detector("U2F_0", at: 800)
        driver.detector("GPG_1", at: 5000)
        driver.detector("GPG_0", at: 6000)
        #expect(driver.effects == [.cue, .cue])
    }

    @Test func bothSignalsOfOneWaitAreOneCueInEitherOrder() {
        var fileFirst = Driver()
        fileFirst.give(.pendingFileOpened, at: 0)
        fileFirst.detector("U2F_1", at: 20)
        fileFirst.detector("U2F_0", at: 900)
        fileFirst.give(.pendingFileClosed, at: 910)
        #expect(fileFirst.cues == 1)

        var detectorFirst = Driver()
        detectorFirst.detector("U2F_1", at: 0)
        detectorFirst.give(.pendingFileOpened, at: 30)
        detectorFirst.give(.pendingFileClosed, at: 900)
        // The detector's end comes after the file's close, and its start again a moment later: the same wait.
        detectorFirst.detector("U2F_0", at: 1000)
        detectorFirst.detector("U2F_1", at: 1100)
        detectorFirst.detector("U2F_0", at: 1200)
        #expect(detectorFirst.cues == 1)
    }

    @Test func aWaitBeginningPastTheMergeWindowIsANewWaitAndCuedAgain() {
        var driver = Driver()
        driver.give(.pendingFileOpened, at: 0)
        driver.give(.pendingFileClosed, at: 1000)
        driver.give(.pendingFileOpened, at: 1500)
        #expect(driver.cues == 2)
    }

    @Test func doneIsSaidOnceTheWaitHasStayedOverWhenTheUserAskedForIt() {
        var driver = Driver(saysRelease: true)
        driver.give(.pendingFileOpened, at: 0)
        driver.give(.pendingFileClosed, at: 1000)
        #expect(driver.effects == [.cue, .wake(at: .milliseconds(1500))])
        driver.give(.clock(.milliseconds(1499)), at: 1499)
        #expect(driver.effects.last == .wake(at: .milliseconds(1500)))
        driver.give(.clock(.milliseconds(1500)), at: 1500)
        #expect(driver.effects.last == .released)
        driver.give(.clock(.seconds(9)), at: 9000)
        #expect(driver.effects.filter { $0 == .released }.count == 1)
    }

    @Test func aLateWakeUpStillSaysDoneBeforeTheNextWaitsCue() {
        var driver = Driver(saysRelease: true)
        driver.detector("GPG_1", at: 0)
        driver.detector("GPG_0", at: 100)
        driver.detector("GPG_1", at: 2000)
        #expect(driver.effects == [.cue, .wake(at: .milliseconds(600)), .released, .cue])
    }

    @Test func aDetectorLostMidWaitEndsItsWaitAndItsWordsBeforeTheRestartAreForgotten() {
        var driver = Driver()
        driver.detector("U2F_1G", at: 0)
        driver.give(.detectorLost, at: 100)
        #expect(!driver.model.isWaiting)
        driver.give(.detectorConnected, at: 2000)
        driver.detector("PG_1", at: 2100)
        #expect(!driver.model.isWaiting)
        driver.detector("U2F_1", at: 2200)
        #expect(driver.cues == 2)
    }

    @Test func closesTheWatcherCountedBeyondItsOpensDoNotHideTheNextWait() {
        var driver = Driver()
        driver.give(.pendingFileClosed, at: 0)
        driver.give(.pendingFileClosed, at: 1)
        driver.give(.pendingFileOpened, at: 2000)
        #expect(driver.cues == 1)
        driver.give(.pendingFileForgotten, at: 2100)
        #expect(!driver.model.isWaiting)
    }
}
