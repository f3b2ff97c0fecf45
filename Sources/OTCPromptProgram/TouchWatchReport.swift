import OTCPromptCore
import OTCPromptHost

/// `--doctor`'s line on the touch cues: which signals `--touch-watch` watches here, and what each is now.
enum TouchWatchReport {
    static func line(environment: [String: String], user: UInt32 = UserAccount.currentUID) -> String {
        guard let directory = environment["XDG_RUNTIME_DIR"], directory.hasPrefix("/") else {
            return "Touch cues (--touch-watch): nothing to watch, XDG_RUNTIME_DIR is not set."
        }
        let pending = directory + "/" + TouchSignalWatch.pendingFileName
        let socket = directory + "/" + TouchSignalWatch.detectorSocketName
        let file: String
        do {
            try FileTrust(kinds: [.regularFile], owners: [user, 0], othersMay: .anything).check(path: pending)
            file = "there"
        } catch {
            if case .unexaminable = error {
                file = "not made yet: pam_u2f makes it at its first wait"
            } else {
                file = "not believed: \(error)"
            }
        }
        let detector: String
        if let why = LocalSocket.foreignOwner(of: socket, uid: user) {
            detector = "not believed: \(why)"
        } else if let connection = try? LocalSocket.connect(path: socket, timeout: .milliseconds(200)) {
            detector = connection.peerUID == user ? "listening, yours" : "not believed: its listener is not you"
            connection.close()
        } else {
            detector = "nothing listens"
        }
        return "Touch cues (--touch-watch) watch pam_u2f's pending file \(pending) (\(file)) and the touch "
            + "detector's socket \(socket) (\(detector))."
    }
}
