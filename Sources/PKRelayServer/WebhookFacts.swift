import Protocol
import RoomEngine

/// What the room server is told about: rooms, users (not forwarded mirrors), streams, forwards
/// and links. Webhook events are the differences between the facts before and after the
/// engine's actions are applied.
struct WebhookFacts: Sendable {
    /// A user in a room.
    struct Presence: Sendable, Hashable {
        var session: SessionID
        var role: UserRole
        var visible: Bool
    }

    var rooms: [String] = []
    /// Users per room, in joining order.
    var users: [String: [(userId: String, presence: Presence)]] = [:]
    /// Published streams by "room user streamIndex", with their mediaType.
    var streams: [String: Int] = [:]
    var forwards: [ForwardSnapshot] = []
    var links: [LinkSnapshot] = []

    init() {}

    init(engine: RoomEngine) {
        rooms = engine.roomIds
        for roomId in rooms {
            var present: [(userId: String, presence: Presence)] = []
            for member in engine.snapshot(roomId: roomId) ?? [] where engine.forwardedFrom(roomId: roomId, userId: member.userId) == nil {
                present.append((userId: member.userId, presence: Presence(session: member.session, role: member.role, visible: member.visible)))
                for (index, tracks) in member.publications where !tracks.isEmpty {
                    streams[Self.streamKey(roomId, member.userId, index)] = tracks.reduce(0) { $0 | $1.kind.mediaTypeBit }
                }
            }
            users[roomId] = present
        }
        forwards = engine.forwardSnapshots()
        links = engine.linkSnapshots()
    }

    static func streamKey(_ roomId: String, _ userId: String, _ index: StreamIndex) -> String { "\(roomId) \(userId) \(index.rawValue)" }
}
