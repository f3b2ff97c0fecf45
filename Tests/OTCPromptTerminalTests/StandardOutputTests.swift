// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptCore
import OTCPromptHost
import Testing

@testable import OTCPromptTerminal

@Suite struct StandardOutputTests {
    @Test func standardOutputWritesTheCodeAndANewline() throws {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { for end in ends { close(end) } }
        try StandardOutput.write("985391", to: ends[1])
        var buffer = [UInt8](repeating: 0, count: 16)
        let count = read(ends[0], &buffer, 16)
        #expect(Array(buffer[0..<max(count, 0)]) == Array("985391\n".utf8))
    }

    /// cryptsetup reads a keyscript's stdout to its end as the key: a newline there would be part of it.
    @Test func standardOutputCanWriteTheSecretAloneWithoutANewline() throws {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        try StandardOutput.write("correct horse 7", to: ends[1], endingLine: false)
        close(ends[1])
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = read(ends[0], &buffer, 32)
        #expect(Array(buffer[0..<max(count, 0)]) == Array("correct horse 7".utf8))
    }

    @Test func aBrokenPipeOnStandardOutputThrowsAClearError() throws {
        signal(SIGPIPE, SIG_IGN)
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        close(ends[0])
        defer { close(ends[1]) }
        #expect(throws: HostError.standardOutput(.brokenPipe)) { try StandardOutput.write("985391", to: ends[1]) }
        let message = HostError.standardOutput(.brokenPipe).description
        #expect(message.contains("broken pipe") && !message.contains("985391") && !message.contains("\n"))
    }

    @Test func aClosedStandardOutputThrows() throws {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { for end in ends { close(end) } }
        // Writing to the read end is what a closed-then-reserved fd 1 (read-only /dev/null) gives.
        #expect(throws: HostError.standardOutput(.badFileDescriptor)) {
            try StandardOutput.write("985391", to: ends[0])
        }
        #expect(HostError.standardOutput(.badFileDescriptor).description.contains("closed"))
    }
}

@Suite struct SecretOutputTests {
    @Test func aSecretIsWrittenWithANewlineAndWipedOnceWritten() throws {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { for end in ends { close(end) } }
        let secret = SecretBytes(copying: "corr%ect é")
        try StandardOutput.write(secret, to: ends[1], encoding: .latin1)
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = read(ends[0], &buffer, 32)
        #expect(Array(buffer[0..<max(count, 0)]) == Array("corr%ect ".utf8) + [0xE9, 0x0A])
        #expect(secret.isEmpty)
        #expect(secret.withStorage { $0.allSatisfy { $0 == 0 } })
    }
}
