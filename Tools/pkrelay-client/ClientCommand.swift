import ArgumentParser

/// `pkrelay-client`: drives ffmpeg and ffplay through a relay, so a first PK can be tried with
/// nothing but a token.
@main
struct ClientCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pkrelay-client",
        abstract: "Publish with ffmpeg and watch with ffplay/ffmpeg through a PKRelay relay.",
        subcommands: [PublishCommand.self, WatchCommand.self])
}
