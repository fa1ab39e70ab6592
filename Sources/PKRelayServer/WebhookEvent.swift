import Foundation

/// One event for the room server, encoded once and posted to every endpoint.
struct WebhookEvent: Sendable {
    /// Unique id (a UUID), also sent as `X-PKRelay-Delivery`; stays the same across retries.
    let id: String
    /// e.g. `user.joined`.
    let type: String
    /// The room whose events are delivered in order.
    let roomId: String
    /// The JSON body: `{"id", "type", "timestamp", "sequence", "roomId", "data"}`.
    let body: Data
}
