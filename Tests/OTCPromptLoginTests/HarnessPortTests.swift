import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

extension RealClientTests {
    /// The harness's own servers on ports found free: a port taken between the finding and the binding is not
    /// mistaken for the server's, and the server is started again on another.
    @Suite struct HarnessPorts {
        static let listener = """
            import socket, sys
            s = socket.socket()
            s.bind(("127.0.0.1", int(sys.argv[1])))
            s.listen(1)
            s.accept()
            """

        func listening(on port: Int) throws -> PseudoTerminalProcess {
            try PseudoTerminalProcess(
                executable: "/usr/bin/python3", arguments: ["-c", Self.listener, String(port)],
                environment: ["PATH": "/usr/bin:/bin"], terminal: false)
        }

        @Test func aPortTakenBeforeTheServerBindsItIsLeftForAnother() throws {
            var taken: (port: Int, by: PseudoTerminalProcess)?
            let (port, server) = try startListening("the stand-in server") { port in
                guard taken == nil else { return try listening(on: port) }
                // Another program takes the port first; the server's own bind then fails, while a connection
                // to the port would still be answered.
                let other = try listening(on: port)
                #expect(waitUntil(deadline: .seconds(10)) { processListens(other.processID, port: port) })
                taken = (port, other)
                return try listening(on: port)
            }
            let first = try #require(taken)
            #expect(port != first.port)
            #expect(processListens(server.processID, port: port))
            #expect(!processListens(server.processID, port: first.port))
            #expect(processListens(first.by.processID, port: first.port))
        }
    }
}
