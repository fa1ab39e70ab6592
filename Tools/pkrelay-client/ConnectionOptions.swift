import ArgumentParser

/// Options every subcommand takes: where the relay is and who we are.
struct ConnectionOptions: ParsableArguments {
    @Option(help: "The relay's control channel.")
    var relay: String = "ws://127.0.0.1:7700/rtc"

    @Option(help: "A token for this room and user (`pkrelay token --room R --user U`).")
    var token: String

    @Option(help: "The room.")
    var room: String

    @Option(help: "The user id.")
    var user: String
}
