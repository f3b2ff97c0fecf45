// SPDX-License-Identifier: GPL-3.0-or-later

/// The waits a test may make for time: the program's own rules, not guesses.
extension PseudoTerminalProcess {
    /// The program's type-ahead grace for a question or notice (`ConfirmSession.grace`): keys within it
    /// after the prompt appears are dropped as typed too early. It begins before the prompt is shown, so
    /// a test that has seen the prompt and then waited this long types past it, however loaded the machine.
    public static let typeAheadGrace: Duration = .milliseconds(300)

    /// Waits the type-ahead grace, reading the terminal meanwhile: a rule of the program, not a guess.
    public func waitPastTheGrace() {
        _ = wait(deadline: Self.typeAheadGrace) { _ in false }
    }

    /// The program's paste join window (`UnmarkedPasteJoin.window`): keys that follow a read with no
    /// longer pause continue it (a paste the link split, or the rest of a dropped leftover line).
    public static let pasteJoinWindow: Duration = .milliseconds(100)

    /// Waits the paste join window, reading the terminal meanwhile: what is typed next is a new read.
    public func waitPastThePasteJoin() {
        _ = wait(deadline: Self.pasteJoinWindow) { _ in false }
    }

    /// The same, for async tests: the task is suspended meanwhile.
    public func waitPastTheGrace() async {
        _ = await wait(deadline: Self.typeAheadGrace) { _ in false }
    }

    /// The same, for async tests: the task is suspended meanwhile.
    public func waitPastThePasteJoin() async {
        _ = await wait(deadline: Self.pasteJoinWindow) { _ in false }
    }
}
