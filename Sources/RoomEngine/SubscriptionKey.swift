import Protocol

/// Names what a subscription is for: a publisher's stream in the same room.
struct SubscriptionKey: Sendable, Hashable {
    var publisherUserId: String
    var streamIndex: StreamIndex
}
