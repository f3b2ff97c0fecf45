import OTCPromptCore
import Testing

@testable import OTCPromptProgram

@Suite struct AgentStepsTests {
    let language = Language(rawValue: "en")!

    private func request(_ id: String, afterAnswer: String? = nil) -> AgentSteps.Examined {
        AgentSteps.Examined(id: id, subject: id, afterAnswer: afterAnswer)
    }

    /// A hold begun by a withdrawal goes on through a wait cut by the next request into that request, and its count
    /// is every key since the withdrawal, said once: the rule once kept by the loop as `heldAlready`.
    @Test func aHoldCarriedFromTheWaitIntoTheNextRequestCountsEveryKeyOnce() {
        let steps = AgentSteps(language: language)
        steps.requestsAre([request("ask.a")], at: .seconds(1), id: \.id) { $0 }
        #expect(steps.opening() == .init(id: "ask.a", news: [], waiting: 0))
        steps.requestsAre([], at: .seconds(2), id: \.id) { $0 }
        #expect(steps.holds)
        #expect(steps.opening().news == ["Request withdrawn."])
        steps.held(3, at: .seconds(2) + .milliseconds(200))
        // The wait not heard yet: B ends it and meets the hold.
        #expect(steps.release(heard: false, at: .seconds(2) + .milliseconds(300)) == nil)
        steps.requestsAre([request("ask.b")], at: .seconds(2) + .milliseconds(400), id: \.id) { $0 }
        #expect(steps.opening() == .init(id: "ask.b", news: ["Request withdrawn."], waiting: 0))
        steps.held(2, at: .seconds(2) + .milliseconds(500))
        #expect(steps.release(heard: true, at: .seconds(3)) == nil, "the keys have not stopped long enough")
        #expect(steps.release(heard: true, at: .seconds(4)) == 5)
        #expect(!steps.holds && steps.release(heard: true, at: .seconds(5)) == nil)
        #expect(steps.escape("ask.b"))
    }

    /// A request written again under the name of one answered and gone is a new request, asked again.
    @Test func aRequestWrittenAgainUnderAnAnsweredOnesNameIsAskedAgain() {
        let steps = AgentSteps(language: language)
        steps.requestsAre([request("ask.a")], at: .seconds(1), id: \.id) { $0 }
        #expect(steps.opening().id == "ask.a")
        #expect(steps.submitted("ask.a"))
        steps.sent("ask.a", delivered: true)
        steps.requestsAre([], at: .seconds(2), id: \.id) { $0 }
        #expect(steps.open == nil)
        steps.requestsAre([request("ask.a")], at: .seconds(3), id: \.id) { $0 }
        #expect(steps.open == "ask.a")
        #expect(steps.opening() == .init(id: "ask.a", news: [], waiting: 0))
    }

    /// A PIN's "Touch your security key." comes once its answer has been sent, first in what opens next; not when the
    /// answer could not be sent.
    @Test func whatAnAnswerAsksOfTheUserIsSaidFirstByWhatOpensNextOnceItIsSent() {
        for delivered in [true, false] {
            let steps = AgentSteps(language: language)
            steps.requestsAre([request("ask.pin", afterAnswer: "Touch.")], at: .seconds(1), id: \.id) { $0 }
            _ = steps.opening()
            #expect(steps.submitted("ask.pin"))
            steps.sent("ask.pin", delivered: delivered)
            steps.requestsAre([request("ask.home")], at: .seconds(2), id: \.id) { $0 }
            #expect(steps.opening() == .init(id: "ask.home", news: delivered ? ["Touch."] : [], waiting: 0))
        }
    }

    /// Enter in a field whose request the model has closed (its file gone, seen by the news while the field was still
    /// on screen): the model sends nothing, so the loop sends nothing, whatever the directory holds by then.
    @Test func enterInAFieldWhoseRequestVanishedSendsNothing() {
        let steps = AgentSteps(language: language)
        steps.requestsAre([request("ask.a")], at: .seconds(1), id: \.id) { $0 }
        #expect(steps.opening().id == "ask.a")
        steps.requestsAre([], at: .seconds(2), id: \.id) { $0 }
        #expect(!steps.submitted("ask.a"))
        #expect(!steps.escape("ask.a"))
    }

    /// A file put under the name of the request being asked is another request: Enter typed for the first sends
    /// nothing to either, and the second is asked next.
    @Test func aFileReplacedUnderItsNameIsAnotherRequestAndTakesNoAnswerTypedForTheFirst() {
        let steps = AgentSteps(language: language)
        steps.requestsAre([request("ask.a@1")], at: .seconds(1), id: \.id) { $0 }
        #expect(steps.opening().id == "ask.a@1")
        steps.requestsAre([request("ask.a@2")], at: .seconds(2), id: \.id) { $0 }
        #expect(!steps.submitted("ask.a@1"))
        #expect(steps.open == "ask.a@2")
        #expect(steps.opening() == .init(id: "ask.a@2", news: ["Request withdrawn."], waiting: 0))
        // Heard, and the keys stopped: the hold the switch began ends, and the second's own answer is sent.
        #expect(steps.release(heard: true, at: .seconds(5)) == 0)
        #expect(steps.submitted("ask.a@2"))
    }

    /// An Esc in a field whose request the model has dropped (its relay has not ended the field yet) cancels that
    /// field, as the user heard: a refusal, never a key held and counted as dropped with what comes next.
    @Test func anEscInAFieldWhoseRequestWentIsNeverCountedAsAKeyDropped() {
        let steps = AgentSteps(language: language)
        steps.requestsAre([request("ask.a")], at: .seconds(1), id: \.id) { $0 }
        _ = steps.opening()
        steps.requestsAre([], at: .seconds(2), id: \.id) { $0 }
        #expect(!steps.escape("ask.a"))
        #expect(steps.opening() == .init(id: nil, news: ["Request withdrawn."], waiting: 0))
        #expect(steps.release(heard: true, at: .seconds(5)) == 0)
    }
}
