import RoomEngine

/// One WHIP (publishing) or WHEP (playing) session: a control session of the relay's own that
/// joined with the client's Bearer token and holds one WebRTC transport. Its resource URL
/// names it; `DELETE` ends it as a closed connection would.
struct HTTPMediaSession: Sendable {
    enum Kind: String, Sendable { case whip, whep }

    let kind: Kind
    let session: SessionID
    let roomId: String
    let userId: String
    let transportId: Int
    /// WHEP: the publisher it plays.
    let publisherUserId: String?
}
