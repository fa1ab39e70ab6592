import ArgumentParser
import Foundation
import PKRelayServer

/// `pkrelay config check FILE`: validates a configuration and prints the effective settings.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "config", abstract: "Work with configuration files.", subcommands: [Check.self])

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "check", abstract: "Validate a configuration file and print the effective settings.")

        @Argument(help: "The YAML file.")
        var file: String

        func run() throws {
            let configuration = try loadConfiguration(file)
            for (variable, key) in RelayConfiguration.environmentOverrides(in: ProcessInfo.processInfo.environment) {
                print("# \(key) set by \(variable)")
            }
            print(configuration.effectiveSettings)
            print("configuration OK")
        }
    }
}
