import Hummingbird
import HummingbirdWebSocket
import Synchronization

/// The control listener's request context: Hummingbird's WebSocket context plus the peer's IP
/// address, which `control.maxConnectionsPerAddress` counts by.
///
/// hummingbird-websocket (2.8) keeps the matched upgrade handler in `webSocket`, together with a
/// copy of this context, and never clears it: the context holds the reference that holds the
/// context, a reference cycle that kept every control connection's context (its logger and
/// metadata, endpoint path and handler box, about 600 bytes) alive for the life of the process.
/// The reference therefore lives in a holder the connection empties once the upgrade has taken
/// the handler out (``releaseWebSocketReference()``), which breaks the cycle.
struct ControlRequestContext: RequestContext, WebSocketRequestContext {
    var coreContext: CoreRequestContextStorage
    let holder: WebSocketReferenceHolder
    /// The peer's IP address as text ("?" when the channel has none, e.g. a Unix socket).
    let peerAddress: String

    var webSocket: WebSocketHandlerReference<Self> { holder.reference }

    init(source: Source) {
        coreContext = .init(source: source)
        holder = WebSocketReferenceHolder()
        peerAddress = source.channel.remoteAddress?.ipAddress ?? "?"
    }

    /// Drops the upgrade handler reference (and with it the copy of this context it holds).
    /// Call once the connection is upgraded: the handler has been taken out by then.
    func releaseWebSocketReference() { holder.release() }
}

/// Owns a context's ``WebSocketHandlerReference`` until the connection lets go of it.
final class WebSocketReferenceHolder: Sendable {
    private let stored = Mutex<WebSocketHandlerReference<ControlRequestContext>?>(WebSocketHandlerReference())

    /// The reference, or an empty one once released.
    var reference: WebSocketHandlerReference<ControlRequestContext> {
        stored.withLock { $0 } ?? WebSocketHandlerReference()
    }

    func release() { stored.withLock { $0 = nil } }
}
