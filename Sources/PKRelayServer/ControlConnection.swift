public import RoomEngine

/// An admitted control connection as the listener serves it.
public struct ControlConnection: Sendable {
    public let session: SessionID
    /// The relay's messages for the client, in order. It finishes when the session ends; what is
    /// queued is still written first (a drain's onExitRoom reaches the client).
    public let messages: AsyncStream<String>
    /// Finishes when the relay cuts the connection without writing what is queued: the client
    /// stopped reading, so the queue could never be written.
    public let cut: AsyncStream<Void>
}
