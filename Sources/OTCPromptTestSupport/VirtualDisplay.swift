import Foundation
import Glibc
import OTCPromptSystem

/// The test's end of brltty's Virtual braille driver (Drivers/Braille/Virtual/README): it connects to the driver's
/// socket, says how many cells it has (`Cells N`), records what brltty shows (`Visual "text"`, `Braille "dots"`)
/// on a thread of its own, and sends key commands (`PASSDOTS 7`, `KEY_ENTER`, `FWINRT`, `ROUTE 3`).
public final class VirtualDisplay: @unchecked Sendable {
    /// What the display shows at one moment: the text brltty wrote and the dots of each cell.
    public struct Frame: Equatable, Sendable {
        public var text: String
        public var dots: [Set<Int>]

        /// The text without the blank cells at its end.
        public var trimmed: String {
            String(text.reversed().drop(while: { $0 == " " }).reversed())
        }

        /// The cell brltty draws its cursor on (dots 7 and 8 added to a cell that has neither of its own), from 0.
        public var cursor: Int? {
            let characters = Array(text)
            return dots.indices.first { index in
                dots[index].isSuperset(of: [7, 8]) && index < characters.count && characters[index] != "\u{28C0}"
                    && !characters[index].isUppercase
            }
        }
    }

    private let descriptor: Int32
    private let lock = NSLock()
    private var text: String?
    private var dots: [Set<Int>]?
    private var frames: [Frame] = []

    /// Connects to the driver's socket at `path` and announces `cells` cells; nil when nothing listens yet.
    init?(path: String, cells: Int) {
        let connection = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let connected = UnixSocketAddress(path: path)?.withSocketAddress { connect(connection, $0, $1) == 0 }
        // Refused before the display is whole: a whole one's deinit would close the socket a second time, when its
        // number may already be another test's new descriptor.
        guard connected == true else {
            close(connection)
            return nil
        }
        descriptor = connection
        Thread.detachNewThread { [self] in readLines() }
        send("Cells \(cells)")
    }

    deinit { close(descriptor) }

    /// Sends one command line to brltty, once brltty has read the line before (at most 2 s): the driver takes one
    /// line per read, so a line that came in the same read as the one before would wait for the next to be taken.
    public func send(_ command: String) {
        let deadline = Date().addingTimeInterval(2)
        var unread: Int32 = 0
        // SIOCOUTQ: on a local stream socket, what the peer has not read yet.
        while ioctl(descriptor, UInt(TIOCOUTQ), &unread) == 0, unread > 0, Date() < deadline { usleep(1000) }
        let bytes = Array((command + "\n").utf8)
        _ = write(descriptor, bytes, bytes.count)
    }

    /// What the display shows now; nil before brltty has written to it.
    public var frame: Frame? {
        lock.withLock { frames.last }
    }

    /// Every state the display went through, in order.
    public var history: [Frame] {
        lock.withLock { frames }
    }

    /// Waits until the display shows a frame that satisfies `predicate` (the current one included), at most
    /// `deadline`; returns it, or nil when none came. Looks every 10 ms, suspended in between, as the pty's async
    /// waits do (`PseudoTerminalProcess+Async`).
    @discardableResult
    public func wait(deadline: Duration = .seconds(10), until predicate: (Frame) -> Bool) async -> Frame? {
        let clock = ContinuousClock()
        let end = clock.now.advanced(by: deadline)
        while true {
            if let last = frame, predicate(last) { return last }
            let left = clock.now.duration(to: end)
            if left <= .zero { return nil }
            try? await Task.sleep(for: min(left, .milliseconds(10)))
        }
    }

    /// Waits until the display's text, without its trailing blanks, is `text`.
    @discardableResult
    public func wait(forText text: String, deadline: Duration = .seconds(10)) async -> Frame? {
        await wait(deadline: deadline) { $0.trimmed == text }
    }

    /// Closes the connection (brltty then waits for another display).
    func disconnect() {
        shutdown(descriptor, Int32(SHUT_RDWR))
    }

    private func readLines() {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(descriptor, &chunk, chunk.count)
            guard count > 0 else { return }
            buffer += chunk[0..<count]
            while let newline = buffer.firstIndex(of: 10) {
                take(String(decoding: buffer[..<newline], as: UTF8.self))
                buffer.removeSubrange(...newline)
            }
        }
    }

    /// One line from brltty: the text or the dots change the frame; anything else (status) is left aside.
    private func take(_ line: String) {
        lock.lock()
        defer { lock.unlock() }
        if line.hasPrefix("Visual ") {
            text = Self.unquoted(line.dropFirst("Visual ".count))
        } else if line.hasPrefix("Braille ") {
            dots = Self.unquoted(line.dropFirst("Braille ".count)).split(
                separator: "|", omittingEmptySubsequences: false
            )
            .map { Set($0.compactMap { $0.wholeNumberValue }) }
        } else {
            return
        }
        guard let text else { return }
        frames.append(Frame(text: text, dots: dots ?? []))
    }

    /// A string of the driver's protocol: in double quotes, with `\\`, `\"` and `\Xhh` escapes.
    static func unquoted(_ quoted: Substring) -> String {
        var text = ""
        var characters = quoted.dropFirst().dropLast().makeIterator()
        while let character = characters.next() {
            guard character == "\\", let escaped = characters.next() else {
                text.append(character)
                continue
            }
            if escaped == "X" || escaped == "x", let high = characters.next(), let low = characters.next(),
                let value = UInt32(String([high, low]), radix: 16), let scalar = Unicode.Scalar(value)
            {
                text.unicodeScalars.append(scalar)
            } else {
                text.append(escaped)
            }
        }
        return text
    }
}
