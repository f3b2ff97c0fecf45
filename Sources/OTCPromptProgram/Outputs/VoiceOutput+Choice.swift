import OTCPromptCore

/// The voice (espeak-ng, speech-dispatcher, an audio file), wherever one was chosen or is still starting: its
/// announcements go through the one switch to text lines, should it fail.
extension VoiceOutput: PromptOutput {
    static func make(at place: OutputPlace) -> (any SessionOutput)? {
        place.speech.fallback.map(VoiceOutput.init)
    }
}
