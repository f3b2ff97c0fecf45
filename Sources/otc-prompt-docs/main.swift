import Glibc
import OTCPromptDocs

// otc-prompt-docs FILE: prints the generated text of FILE (a path of `GeneratedDocs.files`, such as
// docs/otc-prompt.1); without an argument, lists those paths. `make docs` writes each file with it.
let arguments = CommandLine.arguments.dropFirst()
if let path = arguments.first, arguments.count == 1 {
    guard let file = GeneratedDocs.files.first(where: { $0.path == path }) else {
        let message = "otc-prompt-docs: no generated file \(path)\n"
        _ = message.withCString { write(STDERR_FILENO, $0, strlen($0)) }
        exit(64)
    }
    print(file.text, terminator: "")
} else {
    for file in GeneratedDocs.files { print(file.path) }
}
