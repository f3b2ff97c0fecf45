import Testing

@testable import OTCPromptSpeech

extension SpeechTests {
    @Suite struct SharedLibraryTests {
        @Test func aLibraryThatIsNotInstalledIsAReasonNamingItNotACrash() {
            #expect {
                try SharedLibrary.open("libotc-prompt-not-installed.so.0")
            } throws: { error in
                guard case .libraryUnavailable(let soname, let reason) = error as? SpeechError else { return false }
                return soname == "libotc-prompt-not-installed.so.0" && reason.contains("No such file or directory")
            }
        }

        @Test func aMissingFunctionIsAReasonNamingIt() throws {
            let libc = try SharedLibrary.open("libc.so.6")
            #expect {
                let _: @convention(c) () -> Void = try libc.function("otc_prompt_no_such_function")
            } throws: { error in
                (error as? SpeechError)?.libraryProblem?.contains("it has no function otc_prompt_no_such_function")
                    == true
            }
        }

        @Test func aFunctionIsCalledThroughItsTypedPointer() throws {
            let libc = try SharedLibrary.open("libc.so.6")
            let length: @convention(c) (UnsafePointer<CChar>?) -> Int = try libc.function("strlen")
            #expect("otc-prompt".withCString { length($0) } == 10)
        }

        @Test func theThreeSpeechLibrariesLoadWhereTheyAreInstalled() {
            #expect(SpeechLibraries.problems() == [])
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
