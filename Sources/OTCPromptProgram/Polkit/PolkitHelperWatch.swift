import Glibc
import OTCPromptSystem

/// The helper's output watched while PAM's messages are said and nothing is asked: a pipe whose writing end is
/// closed the moment the helper writes (or ends) or polkitd withdraws the request. The prompt loop watches a caller
/// only for its hang-up (`PromptPolicy.caller`), so this hang-up ends the notice, and the conversation reads what came.
/// A thread of its own, which `finish()` ends and waits for: no descriptor is closed under it.
struct PolkitHelperWatch {
    /// Hangs up when the helper has something to say.
    let spoke: Int32
    private let stop: (read: Int32, write: Int32)

    /// Watches `output` (the helper's) and `withdrawal`. The corresponding C functions are `pipe` and `poll`.
    static func start(output: Int32, withdrawal: Int32) throws(SystemCallError) -> PolkitHelperWatch {
        let spoke = try SystemCall.wakeUpPipe()
        let stop: (read: Int32, write: Int32)
        do { stop = try SystemCall.wakeUpPipe() } catch {
            close(spoke.read)
            close(spoke.write)
            throw error
        }
        let watch = PolkitHelperWatch(spoke: spoke.read, stop: stop)
        do {
            try DetachedThread.start {
                var descriptors = [
                    pollfd(fd: output, events: Int16(POLLIN), revents: 0),
                    pollfd(fd: withdrawal, events: Int16(POLLIN), revents: 0),
                    pollfd(fd: stop.read, events: Int16(POLLIN), revents: 0),
                ]
                _ = SystemCall.retrying("poll") { poll(&descriptors, 3, -1) }
                close(spoke.write)
            }
        } catch {
            close(spoke.write)
            watch.finish()
            throw error
        }
        return watch
    }

    /// Ends the thread (if the helper has not spoken yet) and waits until it has let go of every descriptor.
    func finish() {
        close(stop.write)
        var hangUp = pollfd(fd: spoke, events: Int16(POLLIN), revents: 0)
        _ = SystemCall.retrying("poll") { poll(&hangUp, 1, -1) }
        close(spoke)
        close(stop.read)
    }
}
