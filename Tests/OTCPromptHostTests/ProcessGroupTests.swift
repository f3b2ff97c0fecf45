import Glibc
import OTCPromptHost
import Testing

/// `ProcessGroup`: whether a stop could ever be undone, decided from what /proc says.
@Suite struct ProcessGroupTests {
    typealias Member = ProcessGroup.Member

    /// A terminal emulator (its own session) running an interactive bash (session leader, group 100).
    static let emulator = Member(pid: 50, parent: 1, group: 50, session: 50)
    static let shell = Member(pid: 100, parent: 50, group: 100, session: 100)

    @Test func aCommandSubstitutionInTheShellsOwnGroupIsOrphaned() {
        // `code=$(otc-prompt)`: bash's subshell and the prompt stay in the shell's group.
        let subshell = Member(pid: 120, parent: 100, group: 100, session: 100)
        let prompt = Member(pid: 121, parent: 120, group: 100, session: 100)
        #expect(ProcessGroup.isOrphaned(group: 100, among: [Self.emulator, Self.shell, subshell, prompt]) == true)
    }

    @Test func aJobOfAnInteractiveShellIsNotOrphaned() {
        // `otc-prompt` typed at the shell: a group of its own whose parent, the shell, is in the same session.
        let prompt = Member(pid: 130, parent: 100, group: 130, session: 100)
        #expect(ProcessGroup.isOrphaned(group: 130, among: [Self.emulator, Self.shell, prompt]) == false)
    }

    @Test func aSessionOfItsOwnIsOrphaned() {
        // A pinentry's agent started with setsid, or a pty harness: the leader's parent is in another session.
        let agent = Member(pid: 200, parent: 1, group: 200, session: 200)
        let pinentry = Member(pid: 201, parent: 200, group: 200, session: 200)
        let initProcess = Member(pid: 1, parent: 0, group: 1, session: 1)
        #expect(ProcessGroup.isOrphaned(group: 200, among: [initProcess, agent, pinentry]) == true)
    }

    @Test func aParentThatCannotBeSeenLeavesItUndecided() {
        // /proc mounted with hidepid hides another user's processes: the stop is tried as before.
        let prompt = Member(pid: 130, parent: 100, group: 130, session: 100)
        #expect(ProcessGroup.isOrphaned(group: 130, among: [prompt]) == nil)
        #expect(ProcessGroup.isOrphaned(group: 130, among: []) == nil)
    }

    @Test func aStatLineIsReadAfterTheCommandsLastParenthesis() {
        let line = "4242 (otc (prompt) x) S 4200 4242 4100 34816 4242 4194304 0 0 0 0"
        #expect(ProcessGroup.member(fromStat: line) == Member(pid: 4242, parent: 4200, group: 4242, session: 4100))
        #expect(ProcessGroup.member(fromStat: "garbage") == nil)
    }

    @Test func thisProcessIsFoundInProc() {
        #expect(ProcessGroup.currentIsOrphaned() != nil)
    }
}
