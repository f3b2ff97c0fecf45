import OTCPromptSystem
import Testing

@testable import OTCPromptSpeech

extension SpeechTests {
    @Suite struct SpeechLibrariesTests {
        @Test func theThreeSpeechLibrariesLoadWhereTheyAreInstalled() {
            #expect(SpeechLibraries.problems() == [])
        }

        @Test func aLibraryTheLoaderRefusesIsSpeechUnavailableNamingItAndWhy() {
            let refusal = SharedLibraryError(soname: "libpulse.so.0", reason: "it has no function pa_stream_new")
            #expect(
                SpeechError(refusal) == .libraryUnavailable("libpulse.so.0", reason: "it has no function pa_stream_new")
            )
        }

        @Test func theMessageNamesThePackageToInstall() {
            let error = SpeechError.libraryUnavailable("libpulse.so.0", reason: "it has no function pa_stream_new")
            #expect(
                error.description
                    == "speech unavailable: libpulse.so.0 cannot be loaded (install libpulse0): it has no function "
                    + "pa_stream_new; announcements shown as text")
        }
    }
}
