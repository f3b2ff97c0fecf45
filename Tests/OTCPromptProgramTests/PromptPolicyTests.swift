import OTCPromptCore
import Testing

@testable import OTCPromptProgram

/// What each front end's caller asks of a prompt, as one value: a pinentry's caller is gpg-agent's pipe, a keyscript's
/// is the PC speaker's tones, and neither takes another caller's terminal or voice rules by default.
@Suite struct PromptPolicyTests {
    @Test func aPlainPromptHasNoOtherCallerAndLetsTheTerminalAndTheVoiceGoAtItsEnd() {
        let plain = PromptPolicy.plain
        #expect(plain.caller.isEmpty && !plain.callerIsInProcess && plain.outside == nil)
        #expect(!plain.keepsRawMode && plain.voiceReleasedAfterSilence == nil && plain.speculatesOnEspeak)
        #expect(plain.cue == nil && plain.declines == nil && plain.keyHold == nil)
    }

    @Test func aPinentryWatchesGpgAgentsPipeAsAnotherProgram() {
        let pinentry = PromptPolicy.pinentry(caller: [0, 1])
        #expect(pinentry.caller == [0, 1])
        #expect(!pinentry.callerIsInProcess, "Ctrl-Z is refused while gpg-agent waits")
        #expect(!pinentry.keepsRawMode && pinentry.cue == nil)
    }

    @Test func aKeyscriptsPolicyIsItsCueAlone() {
        let keyscript = PromptPolicy.keyscript(cue: .retry)
        #expect(keyscript.cue == .retry)
        #expect(keyscript.caller.isEmpty && !keyscript.keepsRawMode && keyscript.speculatesOnEspeak)
    }
}
