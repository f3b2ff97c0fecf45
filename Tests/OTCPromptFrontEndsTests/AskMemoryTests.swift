import OTCPromptCore
import OTCPromptFrontEnds
import Testing

/// What is remembered between askpass calls, with the state directory and the process's facts as values.
@Suite struct AskMemoryTests {
    final class Store: AskStore {
        var files: [String: String] = [:]
        var callerProcess: Int32 = 4242
        var now: Int64 = 1000
        var thisLoginSession = "audit:7"
        func read(_ name: String) -> String? { files[name] }
        func write(_ name: String, _ text: String) { files[name] = text }
        func remove(_ name: String) { files[name] = nil }
    }

    @Test func theSameQuestionFromTheSameCallerSoonAfterItsAnswerIsAskedAgain() {
        let store = Store()
        let memory = AskMemory(store: store)
        #expect(!memory.isAskedAgain("Password: "))
        memory.remember("Password: ", answered: true)
        store.now += 2
        #expect(memory.isAskedAgain("Password: "))
        #expect(!memory.isAskedAgain("Verification code: "))
        store.callerProcess = 1
        #expect(!memory.isAskedAgain("Password: "))
    }

    @Test func aQuestionAfterTheRetryWindowIsANewOne() {
        let store = Store()
        let memory = AskMemory(store: store)
        memory.remember("Password: ", answered: true)
        store.now += AskRecord.retryWindow + 1
        #expect(!memory.isAskedAgain("Password: "))
    }

    @Test func aCancelledQuestionIsForgotten() {
        let store = Store()
        let memory = AskMemory(store: store)
        memory.remember("Password: ", answered: true)
        memory.remember("Password: ", answered: false)
        #expect(store.files.isEmpty)
        #expect(!memory.isAskedAgain("Password: "))
    }

    @Test func theRecordHoldsNoPromptText() {
        let store = Store()
        AskMemory(store: store).remember("[sudo] password for joe: ", answered: true)
        #expect(store.files.values.allSatisfy { !$0.contains("joe") && !$0.contains("password") })
    }

    @Test func aNoticeIsGivenOncePerLoginSession() {
        let store = Store()
        let memory = AskMemory(store: store)
        #expect(memory.isFirstTimeThisSession("no audio device"))
        #expect(!memory.isFirstTimeThisSession("no audio device"))
        #expect(memory.isFirstTimeThisSession("another notice"))
        store.thisLoginSession = "audit:8"
        #expect(memory.isFirstTimeThisSession("no audio device"))
    }

    @Test func withoutAStoreNothingIsRememberedAndEveryNoticeIsGiven() {
        let memory = AskMemory(store: nil)
        memory.remember("Password: ", answered: true)
        #expect(!memory.isAskedAgain("Password: "))
        #expect(memory.isFirstTimeThisSession("no audio device"))
        #expect(memory.isFirstTimeThisSession("no audio device"))
    }
}
