/// A two-way PK link (TRTC model): each anchor's streams appear in the other's room.
struct PKLink: Sendable, Hashable {
    var id: UInt64
    /// The anchor that called connectOtherRoom.
    var caller: LinkEnd
    var peer: LinkEnd
    var startedAt: EngineTime

    /// The read-only view the admin API and the domain events show.
    var snapshot: LinkSnapshot {
        LinkSnapshot(id: id, callerRoomId: caller.roomId, callerUserId: caller.userId, peerRoomId: peer.roomId, peerUserId: peer.userId, startedAt: startedAt)
    }

    func involves(roomId: String, userId: String) -> Bool {
        (caller.roomId == roomId && caller.userId == userId) || (peer.roomId == roomId && peer.userId == userId)
    }
}
