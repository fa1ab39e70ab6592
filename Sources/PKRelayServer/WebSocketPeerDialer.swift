import Cluster
import Hummingbird
import HummingbirdWSClient
import Logging

/// Dials a peer's `/cluster` WebSocket (its registered control URL with `/rtc` replaced) with a
/// fresh node token.
struct WebSocketPeerDialer: PeerDialer {
    /// A fresh node token for each dial.
    let bearer: @Sendable () -> String
    let logger: Logger

    func dial(_ node: ClusterNode, into peers: ClusterPeers) async throws {
        var headers = HTTPFields()
        headers[.authorization] = "Bearer \(bearer())"
        let configuration = WebSocketClientConfiguration(maxFrameSize: 1 << 20, additionalHeaders: headers, closeTimeout: .seconds(1))
        _ = try await WebSocketClient.connect(url: Self.peerURL(node.controlURL), configuration: configuration, logger: logger) { inbound, outbound, _ in
            let messages = PeerTextMessages(messages: inbound.messages(maxSize: 1 << 20))
            await peers.serve(messages: messages, write: { try await outbound.write(.text($0)) }, dialed: node)
        }
    }

    /// A node's `/cluster` URL from its control URL (`ws://host:port/rtc`).
    static func peerURL(_ controlURL: String) -> String {
        var base = controlURL
        if base.hasSuffix("/rtc") { base.removeLast(4) }
        while base.hasSuffix("/") { base.removeLast() }
        return base + "/cluster"
    }
}
