import Foundation
import Glibc
import OTCPromptCore
import OTCPromptHost
import OTCPromptTestSupport
import Testing

@testable import OTCPromptSpeechDispatcher

@Suite struct ScriptedServerTests {
    @Test func aReplyArrivingInTwoPiecesIsWaitedForNotTakenForADeadServer() throws {
        let server = try ScriptedSSIPServer(pauseInsideReplies: 80_000)
        let backend = try SpeechDispatcherBackend(
            options: SpeechDispatcherOptions(), environment: ["SPEECHD_ADDRESS": "unix_socket:\(server.path)"],
            user: UserAccount(name: "ana", homeDirectory: "/nonexistent"))
        backend.speak(Announcement(.prompt, "Verification code"))
        usleep(40_000)  // "225-1" has arrived, "225 OK ..." has not
        backend.speak(Announcement(.digit, "9"))
        usleep(40_000)
        backend.speak(Announcement(.digit, "8"))
        backend.finish(timeout: .seconds(2))
        #expect(backend.failure == nil)
        #expect(backend.takeUnsaid().isEmpty)
    }
}
