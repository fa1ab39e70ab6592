/// A user in a room: the source of a forward, or the sender of messages.
struct ForwardKey: Sendable, Hashable {
    var roomId: String
    var userId: String
}
