/// Counts a user's messages in the current one-second window.
struct MessageBucket: Sendable, Hashable {
    var windowStart: Int64
    var count: Int
}
