import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

extension RealClientTests {
    /// ssh-agent asking, through otc-prompt, whether a key added with `ssh-add -c` may sign.
    @Suite(.serialized) struct SSHAgentConfirmation {
        let scratch: ScratchDirectory
        let speechLog: String
        let agent: PrivateSSHAgent
        static let question = "Allow use of key"

        init() throws {
            scratch = try ScratchDirectory()
            speechLog = scratch.file("speech.jsonl")
            agent = try PrivateSSHAgent(in: scratch, askpass: try Askpass.wrapper(in: scratch, speechLog: speechLog))
        }

        /// The agent's terminal, where the askpass asked, has exactly the settings it started with.
        func expectTerminalRestored(sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(agent.agent.terminalRestored, "terminal settings changed", sourceLocation: sourceLocation)
        }

        @Test func yesLetsTheAgentSign() async throws {
            let request = try agent.requestSignature("yes")
            await agent.agent.answer("yes\r", after: Self.question)
            #expect(try request.signed(), "screen: \(agent.agent.visibleScreen)")
            expectTerminalRestored()
            #expect(SpokenLine.transcript(speechLog).contains(Self.question))
        }

        /// The question and how to answer it first, in one sentence; the fingerprint follows, shown whole and
        /// spelled in groups for the voice (the speech log has both), for a key to cut short (it once took 18 s).
        @Test func theQuestionComesFirstAndTheFingerprintFollowsSpelledInGroups() async throws {
            let request = try agent.requestSignature("by-ear")
            #expect(await agent.agent.waitForQuestion(Self.question, speechLog: speechLog))
            let line = try #require(
                ((try? String(contentsOfFile: speechLog, encoding: .utf8)) ?? "").split(separator: "\n").first {
                    $0.contains(Self.question)
                })
            let entry = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(entry["lead"] as? String == "Allow use of key otc-e2e-key? Yes or no.", "\(entry)")
            let text = try #require(entry["text"] as? String)
            #expect(text.hasPrefix("Allow use of key otc-e2e-key? Yes or no. Key fingerprint \(agent.fingerprint)."))
            let said = try #require(entry["said"] as? String)
            let hash = agent.fingerprint.dropFirst("SHA256:".count)
            let groups = stride(from: 0, to: hash.count, by: 4).map {
                Array(hash.dropFirst($0).prefix(4)).map(String.init).joined(separator: " ")
            }
            #expect(said.contains("Key fingerprint SHA256: " + groups.joined(separator: ", ")), "\(said)")
            await agent.agent.answer("no\r", after: Self.question)
            #expect(request.refused())
        }

        @Test func noRefusesTheSignature() async throws {
            let request = try agent.requestSignature("no")
            await agent.agent.answer("no\r", after: Self.question)
            #expect(request.refused(), "screen: \(agent.agent.visibleScreen)")
            expectTerminalRestored()
        }

        @Test func escapeRefusesTheSignature() async throws {
            let request = try agent.requestSignature("escape")
            await agent.agent.answer("\u{1b}", after: Self.question)
            #expect(request.refused(), "screen: \(agent.agent.visibleScreen)")
            expectTerminalRestored()
        }

        /// The whole words yes and no in any case, sent with Enter, are the answers (a single
        /// letter is not: `anotherWordAsksAgain`).
        @Test(arguments: [("Yes", true), ("yes", true), ("YES", true), ("NO", false), ("no", false), ("No", false)])
        func aWordInAnyCaseSentWithEnterAnswers(_ word: String, _ approves: Bool) async throws {
            let request = try agent.requestSignature("word")
            await agent.agent.answer(word + "\r", after: Self.question)
            if approves {
                #expect(try request.signed(), "screen: \(agent.agent.visibleScreen)")
            } else {
                #expect(request.refused(), "screen: \(agent.agent.visibleScreen)")
            }
            expectTerminalRestored()
        }

        /// Any other word asks again; it decides nothing.
        @Test func anotherWordAsksAgain() async throws {
            let request = try agent.requestSignature("other")
            await agent.agent.answer("ok\ry\r", after: Self.question)
            #expect(
                await agent.agent.waitForHelp(count: 2, speechLog: speechLog), "not told how to answer after ok and y")
            #expect(request.pending, "\"ok\" or \"y\" answered the question")
            await agent.agent.typeKeys("no\r")
            #expect(request.refused())
        }

        /// What is typed after an answer (a stray Enter, a repeated "yes⏎") must not approve
        /// the next request, which once took an empty answer as yes.
        @Test
        func whatIsLeftOfOneAnswerDoesNotApproveTheNextRequest() async throws {
            let first = try agent.requestSignature("first")
            await agent.agent.answer("yes\r\ryes\r", after: Self.question)
            #expect(try first.signed())
            let second = try agent.requestSignature("second")
            #expect(await agent.agent.waitForQuestion(Self.question, call: 2, speechLog: speechLog))
            #expect(await agent.agent.readBack(Self.question, untilSaid: 3, speechLog: speechLog))
            #expect(second.pending, "the second request was answered by the first one's leftovers")
            await agent.agent.typeKeys("no\r")
            #expect(second.refused(), "screen: \(agent.agent.visibleScreen)")
            expectTerminalRestored()
        }

        /// The sweep point that approved the key once: "ye" as the question appears, "s⏎" after the grace
        /// (Portuguese "sim" to the old prompt). The whole line is dropped and said so; the key is not approved.
        @Test(.waitsSynchronously)
        // Synchronous: "as the question appears" is within the 300 ms grace, so its waits wake on the question
        // at once (poll on the terminal) rather than at a look that a busy pool may delay; one such test at a time.
        func aYesBegunAsTheQuestionAppearsNeverApproves() throws {
            let request = try agent.requestSignature("typed-ahead")
            #expect(agent.agent.waitForScreen(Self.question))
            agent.agent.typeKeys("ye")
            pause(ClientRun.reactionTime)  // past the grace, which began before the question
            agent.agent.typeKeys("s\r")
            #expect(
                waitUntil(deadline: .seconds(5)) {
                    SpokenLine.read(speechLog).contains { $0.text == "Typed too early, ignored. Type again." }
                }, "the dropped line was not said")
            #expect(request.pending, "a yes begun as the question appeared approved the key")
            agent.agent.typeKeys("no\r")
            #expect(request.refused())
            expectTerminalRestored()
        }

        /// Keys typed before the question was shown (and within the grace period) are dropped.
        @Test
        func keysTypedBeforeTheQuestionAppearsAreDiscarded() async throws {
            await agent.agent.typeKeys("yes\r")
            let request = try agent.requestSignature("early")
            #expect(await agent.agent.waitForQuestion(Self.question, speechLog: speechLog))
            #expect(await agent.agent.readBack(Self.question, untilSaid: 2, speechLog: speechLog))
            #expect(request.pending, "a key typed before the question answered it")
            await agent.agent.typeKeys("no\r")
            #expect(request.refused())
        }

        /// Enter alone is not an answer; the question stays until one is typed.
        @Test
        func enterAloneIsNotYes() async throws {
            let request = try agent.requestSignature("enter")
            await agent.agent.answer("\r", after: Self.question)
            #expect(await agent.agent.waitForHelp(count: 1, speechLog: speechLog), "not told how to answer after Enter")
            #expect(request.pending, "Enter alone answered the question")
            await agent.agent.typeKeys("no\r")
            #expect(request.refused())
            expectTerminalRestored()
        }

        /// The key's fingerprint, on the line after the question, is on the screen and spoken.
        @Test
        func theKeysFingerprintIsShownAndSpoken() async throws {
            let request = try agent.requestSignature("fingerprint")
            await agent.agent.answer("no\r", after: Self.question)
            #expect(request.refused())
            #expect(agent.agent.visibleScreen.contains(agent.fingerprint), "screen: \(agent.agent.visibleScreen)")
            let spoken = SpokenLine.transcript(speechLog)
            #expect(spoken.lowercased().contains("fingerprint"), "spoken: \(spoken)")
        }
    }
}
