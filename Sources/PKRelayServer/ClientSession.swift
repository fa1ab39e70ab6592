import RoomEngine

/// One control-channel connection as the relay core tracks it.
struct ClientSession: Sendable {
    let id: SessionID
    /// Messages to write to the WebSocket, in order.
    let outbound: AsyncStream<String>.Continuation
    /// The user this connection is, fixed by its first join.
    var userId: String?
    var limiter: RateLimiter
    /// Transports this connection opened (id to local port).
    var transports: [Int: Int] = [:]
    /// Set when the client reads too slowly and its queue overflowed; the connection is closed.
    var overflowed = false
}
