import OTCPromptCore
import OTCPromptFrontEnds
import OTCPromptSettings
import Testing

/// `--stdin`: a line's code, or why there is none and the status that says so.
@Suite struct StdinFrontEndTests {
    @Test func aLineWithACodeGivesTheCode() {
        #expect(StdinFrontEnd.code(in: "123456\n", configuration: PromptConfiguration()) == .success("123456"))
    }

    @Test func aLineWithoutACodeIsInvalidInput() throws {
        guard case .failure(let failure) = StdinFrontEnd.code(in: "12", configuration: PromptConfiguration()) else {
            Issue.record("a short line gave a code")
            return
        }
        #expect(failure.status == ExitStatus.invalidInput)
        guard case .failure(let notText) = StdinFrontEnd.code(in: nil, configuration: PromptConfiguration()) else {
            Issue.record("no text gave a code")
            return
        }
        #expect(notText.status == 65)
    }

    @Test func aRejectedSecretIsNeverRepeated() {
        let failure = StdinFrontEnd.rejected(
            "hunter2", reason: "bad code hunter2", configuration: .freeText(label: "Password"))
        #expect(failure.status == ExitStatus.rejected)
        #expect(!failure.message.contains("hunter2"))
        #expect(failure.message.hasPrefix("code rejected by --check"))
    }
}
