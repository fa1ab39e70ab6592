import ArgumentParser
import Auth
import Foundation
import PKRelayServer

/// `pkrelay token`: mints a token with the configured key, as a room server would.
struct TokenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Print a signed token (on the last line of output).",
        discussion: "Signs with the first key of auth.keys in --config, or with the development key.")

    @Option(name: .long, help: "The room the token admits to (not needed with --admin).")
    var room: String?

    @Option(name: .long, help: "The user id.")
    var user: String = "admin"

    @Option(name: .long, help: "Lifetime: a number with s, m, h or d (default 1h).")
    var ttl: String = "1h"

    @Flag(name: .long, help: "Deny publishing.")
    var noPublish = false

    @Flag(name: .long, help: "Deny subscribing.")
    var noSubscribe = false

    @Flag(name: .long, help: "Deny forwarding to other rooms and PK links.")
    var noForward = false

    @Flag(name: .long, help: "The user is always invisible.")
    var hidden = false

    @Option(name: .long, help: "End the publish privilege earlier than the token: a number with s, m, h or d.")
    var publishTtl: String?

    @Flag(name: .long, help: "Grant the admin API.")
    var admin = false

    @Flag(name: .long, help: "Vouch for the media addresses the client names in connectTransport (sent to at once, without proof).")
    var mediaAddress = false

    @Option(name: .long, help: "A YAML configuration file whose auth.keys sign the token.")
    var config: String?

    func validate() throws {
        if room == nil && !admin { throw ValidationError("--room is required (or --admin for an admin token)") }
        if Self.seconds(ttl) == nil { throw ValidationError("--ttl must be a positive number with s, m, h or d, e.g. 90s, 30m, 1h") }
        if let publishTtl, Self.seconds(publishTtl) == nil {
            throw ValidationError("--publish-ttl must be a positive number with s, m, h or d, e.g. 90s, 30m, 1h")
        }
    }

    func run() throws {
        let configuration = try loadConfiguration(config)
        let now = Int64(Date().timeIntervalSince1970)
        let grants = TokenGrantSet(
            publish: !noPublish, subscribe: !noSubscribe, forward: !noForward, hidden: hidden, admin: admin,
            publishExpiresAt: publishTtl.flatMap(Self.seconds).map { now + $0 }, mediaAddress: mediaAddress ? true : nil)
        let claims = TokenClaims(sub: user, room: room, exp: now + Self.seconds(ttl)!, nbf: now - 1, iat: now, grants: grants)
        if configuration.usesDevelopmentKey {
            FileHandle.standardError.write(Data("note: signed with the development key (no auth.keys configured)\n".utf8))
        }
        print(TokenMinter(key: configuration.mintingKey).mint(claims))
    }

    static func seconds(_ text: String) -> Int64? {
        guard let unit = text.last, let number = Int64(text.dropLast()), number > 0 else { return Int64(text).flatMap { $0 > 0 ? $0 : nil } }
        switch unit {
        case "s": return number
        case "m": return number * 60
        case "h": return number * 3600
        case "d": return number * 86400
        default: return nil
        }
    }
}
