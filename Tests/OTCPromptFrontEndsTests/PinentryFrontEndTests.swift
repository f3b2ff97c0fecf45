import OTCPromptCore
import OTCPromptFrontEnds
import OTCPromptLoop
import Testing

/// gpg-agent's dialogs as requests, and GETPIN's SETREPEAT asked with a scripted prompt.
@Suite struct PinentryFrontEndTests {
    private let frontEnd = PinentryFrontEnd(language: .en, verbosity: .normal)

    private func dialog(_ kind: PinentryRequest.Kind, _ change: (inout PinentryState) -> Void = { _ in })
        -> PinentryRequest
    {
        var state = PinentryState()
        state.description = "Please enter the passphrase for key 0x1234"
        state.prompt = "Passphrase:"
        state.timeoutSeconds = 20
        change(&state)
        return PinentryRequest(kind: kind, state: state)
    }

    @Test func confirmIsAQuestionWithGpgAgentsLabels() throws {
        let asked = try #require(frontEnd.request(dialog(.confirmation) { $0.okLabel = "_Allow" }))
        guard case .question(let question) = asked.ask else { throw Failure("not a question") }
        #expect(question.question == "Please enter the passphrase for key 0x1234")
        #expect(question.labels.yes == "Allow")
        #expect(asked.typeAhead == .discarded(grace: ConfirmSession.grace))
    }

    @Test func messageIsANoticeThatEnterTakes() throws {
        let asked = try #require(frontEnd.request(dialog(.message)))
        guard case .notice(let notice) = asked.ask else { throw Failure("not a notice") }
        #expect(notice.takesEnter)
    }

    @Test func getpinIsAMaskedFreeTextFieldWithGpgAgentsTimeout() throws {
        #expect(frontEnd.request(dialog(.passphrase)) == nil)
        var asked: [Request] = []
        let (result, secret) = frontEnd.askSecret(dialog(.passphrase)) { request in
            asked.append(request)
            return .submitted(SecretBytes(copying: "correct horse"))
        }
        #expect(result == .entered(repeated: false))
        #expect(secret == SecretBytes(copying: "correct horse"))
        guard case .field(let field)? = asked.first?.ask else { throw Failure("not a field") }
        #expect(asked.count == 1)
        #expect(field.kind == .freeText && field.mask)
        #expect(field.label == "Passphrase")
        #expect(field.timeLimit == .seconds(20))
        #expect(field.details == ["Please enter the passphrase for key 0x1234"])
    }

    @Test func aRepeatThatDiffersSaysSoAndAsksBothAgain() throws {
        let answers = ["first", "second", "third", "third"]
        var asked: [Request] = []
        let (result, secret) = frontEnd.askSecret(dialog(.passphrase) { $0.repeatPrompt = "Repeat:" }) { request in
            asked.append(request)
            return .submitted(SecretBytes(copying: answers[asked.count - 1]))
        }
        #expect(result == .entered(repeated: true))
        #expect(secret == SecretBytes(copying: "third"))
        #expect(asked.count == 4)
        guard case .field(let retry) = asked[2].ask else { throw Failure("not a field") }
        #expect(retry.news == ["The entries do not match."])
    }

    @Test func aCancelledRepeatSendsNothing() {
        var count = 0
        let (result, secret) = frontEnd.askSecret(dialog(.passphrase) { $0.repeatPrompt = "" }) { _ in
            count += 1
            return count == 1 ? .submitted(SecretBytes(copying: "first")) : .cancelled
        }
        #expect(result == .cancelled)
        #expect(secret == nil)
    }

    @Test func aPromptThatCouldNotStartIsCancelled() {
        let (result, secret) = frontEnd.askSecret(dialog(.passphrase)) { _ in nil }
        #expect(result == .cancelled)
        #expect(secret == nil)
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
