/// A read-only view of one two-way PK link, for the admin API and webhooks.
public struct LinkSnapshot: Sendable, Hashable {
    /// Relay-wide id of the link.
    public var id: UInt64
    /// The room of the anchor that called connectOtherRoom (or sent the accepted invitation).
    public var callerRoomId: String
    public var callerUserId: String
    /// The room of the other anchor.
    public var peerRoomId: String
    public var peerUserId: String
    /// When the link was made.
    public var startedAt: EngineTime

    /// Creates a snapshot.
    public init(id: UInt64, callerRoomId: String, callerUserId: String, peerRoomId: String, peerUserId: String, startedAt: EngineTime) {
        self.id = id
        self.callerRoomId = callerRoomId
        self.callerUserId = callerUserId
        self.peerRoomId = peerRoomId
        self.peerUserId = peerUserId
        self.startedAt = startedAt
    }

    /// Whether one end of the link is `userId` in `roomId`.
    public func involves(roomId: String, userId: String) -> Bool {
        (callerRoomId == roomId && callerUserId == userId) || (peerRoomId == roomId && peerUserId == userId)
    }

    /// Whether either end of the link is in `roomId`.
    public func touches(roomId: String) -> Bool { callerRoomId == roomId || peerRoomId == roomId }
}
