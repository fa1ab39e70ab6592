import Hummingbird
import HummingbirdWebSocket

/// The control listener's request context: Hummingbird's WebSocket context plus the peer's IP
/// address, which `control.maxConnectionsPerAddress` counts by.
struct ControlRequestContext: RequestContext, WebSocketRequestContext {
    var coreContext: CoreRequestContextStorage
    let webSocket: WebSocketHandlerReference<Self>
    /// The peer's IP address as text ("?" when the channel has none, e.g. a Unix socket).
    let peerAddress: String

    init(source: Source) {
        coreContext = .init(source: source)
        webSocket = .init()
        peerAddress = source.channel.remoteAddress?.ipAddress ?? "?"
    }
}
