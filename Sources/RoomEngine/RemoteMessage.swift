public import Protocol

/// A room or user message for members of a room on another cluster node (a linked room, the own
/// room of a user mirrored here from there, or a room both nodes serve: origin and edge).
public struct RemoteMessage: Sendable, Hashable, Codable {
    public var node: String
    /// The room on that node whose members get it (the event's `roomId`).
    public var roomId: String
    /// A user message's recipient; nil for a room message to every member.
    public var recipientUserId: String?
    public var event: MessageReceivedEvent
    /// Sent between the nodes serving one room (its origin and its edges), for their members:
    /// the origin passes it on to its other edges, an edge to nobody.
    public var withinRoom: Bool
    /// Set on a room message an edge's member sent with `toLinkedRooms`, on its way to the room's
    /// origin, which holds the room's links and passes it on to every linked room. Absent (nil)
    /// otherwise, and from nodes that predate it.
    public var toLinkedRooms: Bool?

    public init(
        node: String, roomId: String, recipientUserId: String?, event: MessageReceivedEvent, withinRoom: Bool = false, toLinkedRooms: Bool? = nil
    ) {
        self.node = node
        self.roomId = roomId
        self.recipientUserId = recipientUserId
        self.event = event
        self.withinRoom = withinRoom
        self.toLinkedRooms = toLinkedRooms
    }
}
