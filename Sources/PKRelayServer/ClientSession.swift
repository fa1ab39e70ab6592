import Protocol
import RoomEngine

/// One control-channel connection as the relay core tracks it.
struct ClientSession: Sendable {
    let id: SessionID
    /// Messages to write to the WebSocket, in order.
    let outbound: AsyncStream<String>.Continuation
    /// Finished when the relay cuts the connection without writing the queue.
    let cut: AsyncStream<Void>.Continuation
    /// The user this connection is, fixed by its first join.
    var userId: String?
    /// Frames of any kind: `control.requestsPerSecond`.
    var limiter: RateLimiter
    /// joinRoom requests: `control.joinsPerSecond`.
    var joinLimiter: RateLimiter
    /// The peer's IP address when the connection came through the listener (counted against
    /// `control.maxConnectionsPerAddress`); nil for sessions opened in-process.
    var address: String?
    /// Frames refused for rate in the current one-second window, which started at
    /// `refusalWindowStartMs`: a client that keeps sending while refused is closed.
    var refusalsInWindow = 0
    var refusalWindowStartMs: Int64 = 0
    /// Transports this connection opened (id to local port).
    var transports: [Int: Int] = [:]
    /// Transports created `receiveOnly`: never published on, and placed as receiving transports.
    var receiveOnlyTransports: Set<Int> = []
    /// Methods of the requests being handled, by request id, so that the answer is counted
    /// under its method (`pkrelay_control_requests_total`).
    var answering: [RequestID?: String] = [:]
    /// What the relay may do to this connection's subscriptions on a weak downlink
    /// (`setSubscribeFallbackOption`).
    var subscribeFallbackOption = SubscribeFallbackOption.default
    /// How it ranks each publisher's video (`setRemoteUserPriority`); low when not set.
    var remotePriorities: [RemotePriorityKey: RemoteUserPriority] = [:]
    /// The size it shows each publisher's video at (`setRemoteVideoConfig`), in device pixels.
    var renderSizes: [RemoteVideoKey: (width: Int, height: Int)] = [:]
}
