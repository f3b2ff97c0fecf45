/// How far the voice got with the newest announcement given to it, for the speech log: when it began to be heard
/// (the first audio sample written to the device; a text line, when it was written) and, once nothing more of it is
/// to be made, when it will have been heard. Read, never pushed: the log asks only when it logs the next
/// announcement, or the last words have played, so a key costs nothing more.
public struct SpeechProgress: Equatable, Sendable {
    /// Counts the announcements given to the voice, from 1: a number that did not move means the voice was not
    /// given the newest one.
    public var number: UInt64
    /// When the newest announcement began to be heard, in nanoseconds on CLOCK_MONOTONIC (`MonotonicInstant`); nil
    /// while nothing of it has been.
    public var began: Int64?
    /// When the last of it will have been heard, once all of it is with the device, on the same clock; nil while
    /// some is still being made.
    public var heardBy: Int64?
    /// It was heard whole the moment it was given (a text line): the log's own time for it is both.
    public var heardWhenGiven: Bool

    public init(number: UInt64, began: Int64?, heardBy: Int64?, heardWhenGiven: Bool = false) {
        self.number = number
        self.began = began
        self.heardBy = heardBy
        self.heardWhenGiven = heardWhenGiven
    }
}
