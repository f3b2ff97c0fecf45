import Foundation

/// A file the prompt writes its speech events to (`OTC_PROMPT_TRACE`: `EVENT GENERATION NANOSECONDS` lines),
/// for the tests that wait for what the speech threads did.
struct SpeechTraceFile {
    let path = NSTemporaryDirectory() + "/otc-e2e-trace-\(UUID().uuidString)"

    /// The events' names, in order.
    var events: [String] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    func remove() { unlink(path) }
}
