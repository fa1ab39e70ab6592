/// A publisher as one subscriber ranks it: the room and the publisher's user id.
struct RemotePriorityKey: Sendable, Hashable {
    var roomId: String
    var userId: String
}
