// SPDX-License-Identifier: GPL-3.0-or-later
import OTCPromptSystem
import Testing

/// The one loader of C libraries, as the speech and braille modules use it.
@Suite struct SharedLibraryTests {
    @Test func aLibraryThatIsNotInstalledIsAReasonNamingItNotACrash() {
        #expect {
            try SharedLibrary.open("libotc-prompt-not-installed.so.0")
        } throws: { error in
            guard let error = error as? SharedLibraryError else { return false }
            return error.soname == "libotc-prompt-not-installed.so.0"
                && error.reason.contains("No such file or directory")
        }
    }

    @Test func aMissingFunctionIsAReasonNamingIt() throws {
        let libc = try SharedLibrary.open("libc.so.6")
        #expect {
            let _: @convention(c) () -> Void = try libc.function("otc_prompt_no_such_function")
        } throws: { error in
            guard let error = error as? SharedLibraryError else { return false }
            return error.soname == "libc.so.6"
                && error.reason.contains("it has no function otc_prompt_no_such_function")
        }
    }

    @Test func aFunctionIsCalledThroughItsTypedPointer() throws {
        let libc = try SharedLibrary.open("libc.so.6")
        let length: @convention(c) (UnsafePointer<CChar>?) -> Int = try libc.function("strlen")
        #expect("otc-prompt".withCString { length($0) } == 10)
    }
}
