import ArgumentParser
import OTCPromptCore
import OTCPromptSpeech
import OTCPromptTerminal

@main
struct OTCPromptCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "otc-prompt")
    func run() throws {}
}
