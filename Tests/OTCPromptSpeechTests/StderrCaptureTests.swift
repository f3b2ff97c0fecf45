import Glibc
import Testing

@testable import OTCPromptSpeech

/// The prepared PulseAudio stream and the engine's start-up capture fd 2 on two threads at once: neither may
/// leave fd 2 pointing at a capture file, nor let a library's text out while the other still captures.
@Suite(.serialized) struct StderrCaptureTests {
    private func say(_ text: String) {
        _ = text.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    }

    private func standardErrorIdentity() -> (dev_t, ino_t) {
        var info = stat()
        fstat(2, &info)
        return (info.st_dev, info.st_ino)
    }

    @Test func overlappingCapturesEachGetTheirPartAndOnlyTheLastRestoresStandardError() {
        let before = standardErrorIdentity()
        guard let first = StderrCapture() else {
            Issue.record("fd 2 cannot be captured")
            return
        }
        say("otc-capture-one\n")
        guard let second = StderrCapture() else {
            Issue.record("fd 2 cannot be captured twice")
            return
        }
        say("otc-capture-two\n")
        let firstText = first.finish()
        say("otc-capture-three\n")
        let secondText = second.finish()
        let after = standardErrorIdentity()
        #expect(firstText.contains("otc-capture-one") && firstText.contains("otc-capture-two"))
        #expect(secondText.contains("otc-capture-two") && secondText.contains("otc-capture-three"))
        #expect(!secondText.contains("otc-capture-one"))
        #expect(after.0 == before.0 && after.1 == before.1, "fd 2 is left on a capture file")
    }
}
