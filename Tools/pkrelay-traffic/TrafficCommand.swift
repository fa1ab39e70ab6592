import ArgumentParser

/// `pkrelay-traffic`: realistic PK load against a PKRelay, with honest measurements.
@main
struct TrafficCommand: AsyncParsableCommand {
    static let version = "0.2.0"

    static let configuration = CommandConfiguration(
        commandName: "pkrelay-traffic",
        abstract: "Load a PKRelay with simulated anchors and audience members and measure what they see.",
        version: version,
        subcommands: [RunCommand.self, MergeCommand.self, IdleCommand.self],
        defaultSubcommand: RunCommand.self)
}
