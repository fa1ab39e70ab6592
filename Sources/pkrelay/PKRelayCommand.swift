import ArgumentParser

/// `pkrelay`: runs the relay (the default), mints tokens, checks configurations.
@main
struct PKRelayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pkrelay",
        abstract: "PKRelay: an open media relay for live-streaming PK (cross-room co-hosting).",
        version: RelayVersion.current,
        subcommands: [ServeCommand.self, TokenCommand.self, ConfigCommand.self],
        defaultSubcommand: ServeCommand.self)
}
